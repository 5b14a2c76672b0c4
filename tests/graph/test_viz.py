"""unigrad.viz: DOT source of graphs (content, escaping, fused clusters) and render()'s errors."""

from __future__ import annotations

import re
import shutil
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import unigrad  # noqa: F401  (registers the primitives)
from unigrad import viz
from unigrad.graph.ir import Eqn, Graph, Literal, Var
from unigrad.ops._primitive import PRIMITIVES
from unigrad.viz import render, to_dot

F32 = np.float32

_NODE = re.compile(r'^\s*([A-Za-z_][A-Za-z_0-9]*) \[(.*)\];$')
_EDGE = re.compile(r'^\s*([A-Za-z_][A-Za-z_0-9]*) -> ([A-Za-z_][A-Za-z_0-9]*) \[label="(.*)"\];$')
_ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


# ----------------------------------------------------------------------------- helpers


def check_syntax(dot: str) -> None:
    """Quoted strings are closed (escapes honoured) and braces outside them balance."""
    depth = 0
    in_string = False
    escaped = False
    for char in dot:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            elif char == "\n":
                raise AssertionError("a quoted string runs over a line break")
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            assert depth >= 0, "a closing brace without an opening one"
    assert not in_string, "an unterminated quoted string"
    assert depth == 0, "unbalanced braces"


def parse(dot: str) -> tuple[dict[str, dict[str, str]], list[tuple[str, str, str]]]:
    """Node id -> attributes, and the (source, target, label) edges; checks the DOT is sound."""
    check_syntax(dot)
    lines = dot.splitlines()
    assert lines[0].startswith("digraph ") and lines[0].endswith("{")
    assert lines[-1] == "}"
    nodes: dict[str, dict[str, str]] = {}
    edges: list[tuple[str, str, str]] = []
    for line in lines[1:-1]:
        edge = _EDGE.match(line)
        if edge:
            edges.append(edge.groups())
            continue
        node = _NODE.match(line)
        if node and node.group(1) not in ("graph", "node", "edge"):
            node_id = node.group(1)
            assert node_id not in nodes, f"node id {node_id} declared twice"
            nodes[node_id] = dict(_ATTR.findall(node.group(2)))
    for source, target, _ in edges:
        assert source in nodes, f"edge from undeclared node {source}"
        assert target in nodes, f"edge to undeclared node {target}"
    return nodes, edges


def unescape(text: str) -> list[str]:
    """A quoted DOT label's text, unescaped, split at its ``\\n`` line breaks."""
    lines, line, chars = [], [], iter(text)
    for char in chars:
        if char != "\\":
            line.append(char)
            continue
        escaped = next(chars)
        if escaped == "n":
            lines.append("".join(line))
            line = []
        else:
            assert escaped in '"\\', f"unexpected escape \\{escaped}"
            line.append(escaped)
    lines.append("".join(line))
    return lines


def label(nodes: dict, node_id: str) -> list[str]:
    """A node's label as its lines, unescaped."""
    return unescape(nodes[node_id]["label"])


def find(nodes: dict, first_line: str) -> str:
    matches = [n for n in nodes if label(nodes, n)[0] == first_line]
    assert len(matches) == 1, f"{first_line!r} labels {matches}"
    return matches[0]


def eqn(name: str, inputs: list, out: Var, **params) -> Eqn:
    return Eqn(PRIMITIVES[name], inputs, out, params)


def small_graph() -> Graph:
    """x @ w, times 2, tanh, plus an array constant; outputs the sum and the product."""
    x = Var((64, 32), F32)
    w = Var((32, 16), F32)
    h = Var((64, 16), F32)
    s = Var((64, 16), F32)
    t = Var((64, 16), F32)
    y = Var((64, 16), F32)
    bias = Literal(np.arange(16, dtype=F32))
    graph = Graph([x, w], [eqn("matmul", [x, w], h),
                           eqn("mul", [h, Literal(2.0)], s),
                           eqn("tanh", [s], t),
                           eqn("add", [t, bias], y)], [y, h])
    graph.verify()
    return graph


class FakeFused:
    """Stands in for a fused-kernel primitive: ``name == "fused"`` and a body graph."""

    name = "fused"

    def __init__(self, body: Graph):
        self.body = body


def fused_graph() -> Graph:
    """fused(x, 3.0) running mul then tanh, then add(fused, x)."""
    a, b, c, d = Var((8,), F32), Var((), F32), Var((8,), F32), Var((8,), F32)
    body = Graph([a, b], [eqn("mul", [a, b], c), eqn("tanh", [c], d)], [d])
    x, y, z = Var((8,), F32), Var((8,), F32), Var((8,), F32)
    return Graph([x], [Eqn(FakeFused(body), [x, Literal(3.0)], y, {"_cache": object()}),
                       eqn("add", [y, x], z)], [z])


# ----------------------------------------------------------------------------- to_dot


def test_small_graph_nodes_and_edges():
    nodes, edges = parse(to_dot(small_graph()))
    # 2 inputs + 4 ops + 1 array constant + 2 outputs
    assert len(nodes) == 9
    assert sorted(label(nodes, n)[0] for n in nodes) == sorted(
        ["input 0", "input 1", "matmul", "mul(·, 2.0)", "tanh", "add", "const",
         "output 0", "output 1"])
    ids = {first: find(nodes, first) for first in
           ["input 0", "input 1", "matmul", "mul(·, 2.0)", "tanh", "add", "const",
            "output 0", "output 1"]}
    assert sorted(edges) == sorted([
        (ids["input 0"], ids["matmul"], "f32[64,32]"),
        (ids["input 1"], ids["matmul"], "f32[32,16]"),
        (ids["matmul"], ids["mul(·, 2.0)"], "f32[64,16]"),
        (ids["mul(·, 2.0)"], ids["tanh"], "f32[64,16]"),
        (ids["tanh"], ids["add"], "f32[64,16]"),
        (ids["const"], ids["add"], "f32[16]"),
        (ids["add"], ids["output 0"], "f32[64,16]"),
        (ids["matmul"], ids["output 1"], "f32[64,16]"),
    ])


def test_labels_carry_types_and_styles():
    nodes, _ = parse(to_dot(small_graph()))
    assert label(nodes, find(nodes, "input 0")) == ["input 0", "f32[64,32]"]
    assert label(nodes, find(nodes, "input 1")) == ["input 1", "f32[32,16]"]
    assert label(nodes, find(nodes, "output 0")) == ["output 0", "f32[64,16]"]
    for first in ("input 0", "input 1", "output 0", "output 1"):
        assert nodes[find(nodes, first)]["shape"] == "ellipse"
    for first in ("matmul", "mul(·, 2.0)", "tanh", "add"):
        assert nodes[find(nodes, first)]["shape"] == "box"
    assert nodes[find(nodes, "input 0")]["fillcolor"] != nodes[find(nodes, "output 0")][
        "fillcolor"]
    # The op's tooltip spells the whole equation.
    assert nodes[find(nodes, "matmul")]["tooltip"] == "f32[64,16] = matmul(·, ·)"


def test_scalar_literals_go_into_the_label_arrays_get_a_const_node():
    x, y, z, u = Var((3,), F32), Var((3,), F32), Var((3,), F32), Var((3,), F32)
    graph = Graph([x], [eqn("mul", [Literal(0.5), x], y),
                        eqn("add", [y, Literal(np.array(1.5, dtype=F32))], z),
                        eqn("sub", [z, Literal(np.array([1.0, 2.0, 3.0], dtype=F32))], u)],
                  [u])
    graph.verify()
    nodes, edges = parse(to_dot(graph))
    assert find(nodes, "mul(0.5, ·)")
    assert find(nodes, "add(·, 1.5:f32)")        # a 0-d array is a scalar too
    const = find(nodes, "const")
    assert label(nodes, const) == ["const", "f32[3]", "[1.0, 2.0, 3.0]"]  # small: values shown
    assert nodes[const]["shape"] == "box"
    sub = find(nodes, "sub")                       # no scalar: just the name
    assert (const, sub, "f32[3]") in edges
    assert len([e for e in edges if e[1] == sub]) == 2
    assert len(nodes) == 1 + 3 + 1 + 1


def test_large_array_literal_shows_only_its_type():
    x, y = Var((100,), F32), Var((100,), F32)
    graph = Graph([x], [eqn("add", [x, Literal(np.zeros(100, dtype=F32))], y)], [y])
    nodes, _ = parse(to_dot(graph))
    assert label(nodes, find(nodes, "const")) == ["const", "f32[100]"]


def test_params_shown_private_skipped_long_truncated():
    x = Var((64, 32), F32)
    t = Var((32, 64), F32)
    graph = Graph([x], [eqn("transpose", [x], t, axes=(1, 0), _hidden="secret",
                            note="n" * 200)], [t])
    dot = to_dot(graph)
    nodes, _ = parse(dot)
    lines = label(nodes, find(nodes, "transpose"))
    assert lines[1] == "axes=(1, 0)"
    assert "secret" not in dot and "_hidden" not in dot
    assert len(lines) == 3 and lines[2].startswith("note='nnn") and lines[2].endswith("…")
    assert len(lines[2]) <= 40
    # the tooltip keeps the whole value
    assert "n" * 200 in nodes[find(nodes, "transpose")]["tooltip"]


def test_fused_eqn_is_a_filled_cluster_of_its_body_ops():
    dot = to_dot(fused_graph())
    nodes, edges = parse(dot)
    clusters = re.findall(r"subgraph (cluster_\w+) \{", dot)
    assert len(clusters) == 1
    # The cluster's own statements: filled, labelled with its ops in order.
    start = dot.index(f"subgraph {clusters[0]} {{")
    block = dot[start:dot.index("\n  }", start)]
    assert 'style="filled,rounded"' in block
    assert 'label="fused: mul, tanh"' in block
    mul, tanh, add = find(nodes, "mul(·, 3.0)"), find(nodes, "tanh"), find(nodes, "add")
    assert f"\n    {mul} [" in block and f"\n    {tanh} [" in block   # inside the cluster
    assert f"{add} [" not in block
    x = find(nodes, "input 0")
    assert sorted(edges) == sorted([
        (x, mul, "f32[8]"),        # the outer operand goes to the body op that reads it
        (mul, tanh, "f32[8]"),
        (tanh, add, "f32[8]"),     # the body's output leaves the cluster
        (x, add, "f32[8]"),
        (add, find(nodes, "output 0"), "f32[8]"),
    ])
    assert "_cache" not in dot


def test_fused_body_that_does_not_line_up_is_still_drawn():
    a, c = Var((8,), F32), Var((8,), F32)
    body = Graph([a], [eqn("neg", [a], c)], [a])           # one body input, output passthrough
    x, w, y = Var((8,), F32), Var((8,), F32), Var((8,), F32)
    graph = Graph([x, w], [Eqn(FakeFused(body), [x, w], y, {})], [y])
    nodes, edges = parse(to_dot(graph))
    anchor = find(nodes, "fused")
    assert (find(nodes, "input 0"), anchor, "f32[8]") in edges
    assert (find(nodes, "input 1"), anchor, "f32[8]") in edges
    assert (anchor, find(nodes, "output 0"), "f32[8]") in edges
    assert (find(nodes, "param 0"), find(nodes, "neg"), "f32[8]") in edges


def test_nested_fused_clusters_have_unique_ids():
    inner_a, inner_b = Var((4,), F32), Var((4,), F32)
    inner = Graph([inner_a], [eqn("exp", [inner_a], inner_b)], [inner_b])
    a, b, c = Var((4,), F32), Var((4,), F32), Var((4,), F32)
    outer = Graph([a], [Eqn(FakeFused(inner), [a], b, {}), eqn("neg", [b], c)], [c])
    x, y, z = Var((4,), F32), Var((4,), F32), Var((4,), F32)
    graph = Graph([x], [Eqn(FakeFused(outer), [x], y, {}), Eqn(FakeFused(inner), [y], z, {})],
                  [z])
    dot = to_dot(graph)
    nodes, edges = parse(dot)
    clusters = re.findall(r"subgraph (cluster_\w+) \{", dot)
    assert len(clusters) == 3 and len(set(clusters)) == 3
    exps = [n for n in nodes if label(nodes, n)[0] == "exp"]
    assert len(exps) == 2
    neg = find(nodes, "neg")
    assert (find(nodes, "input 0"), exps[0], "f32[4]") in edges
    assert (exps[0], neg, "f32[4]") in edges
    assert (neg, exps[1], "f32[4]") in edges
    assert (exps[1], find(nodes, "output 0"), "f32[4]") in edges


def test_quotes_and_backslashes_are_escaped():
    x, y = Var((2,), F32), Var((2,), F32)
    graph = Graph([x], [eqn("neg", [x], y, tag='say "hi"\\path\nnext')], [y])
    dot = to_dot(graph, name='my "graph" \\ 1')
    nodes, _ = parse(dot)
    assert dot.splitlines()[0] == 'digraph "my \\"graph\\" \\\\ 1" {'
    neg = find(nodes, "neg")
    # The label reads back as the param's repr (its newline shown as \n, not a line break).
    assert label(nodes, neg) == ["neg", "tag=" + repr('say "hi"\\path\nnext')]
    assert nodes[neg]["label"] == 'neg\\ntag=\'say \\"hi\\"\\\\\\\\path\\\\nnext\''


class _Awkward:
    def __repr__(self) -> str:
        return 'line1\nline2 } { "q" \\'


def test_newlines_and_braces_in_params_stay_inside_one_label():
    x, y = Var((2,), F32), Var((2,), F32)
    dot = to_dot(Graph([x], [eqn("neg", [x], y, r=_Awkward())], [y]))
    nodes, edges = parse(dot)                      # braces and quotes do not leak out
    assert label(nodes, find(nodes, "neg")) == ["neg", 'r=line1 line2 } { "q" \\']
    assert len(dot.splitlines()) == 4 + 3 + 2 + 1
    assert len(edges) == 2


def test_literal_outputs_and_undefined_vars():
    x, y, ghost = Var((2,), F32), Var((2,), F32), Var((5,), np.int32)
    graph = Graph([x], [eqn("add", [x, ghost], y)], [y, Literal(7)])
    nodes, edges = parse(to_dot(graph))
    assert label(nodes, find(nodes, "output 1")) == ["output 1", "7"]
    free = find(nodes, "undefined")
    assert label(nodes, free) == ["undefined", "i32[5]"]
    assert (free, find(nodes, "add"), "i32[5]") in edges
    assert not [e for e in edges if e[1] == find(nodes, "output 1")]


def test_empty_graph_and_identity_graph():
    nodes, edges = parse(to_dot(Graph([], [], [])))
    assert nodes == {} and edges == []
    x = Var((3, 4), np.float64)
    nodes, edges = parse(to_dot(Graph([x], [], [x])))
    assert edges == [("in0", "out0", "f64[3,4]")]


def test_objects_holding_a_graph_are_accepted():
    graph = small_graph()
    holder = types.SimpleNamespace(graph=graph)
    assert to_dot(holder) == to_dot(graph)
    assert to_dot(holder, name="f").splitlines()[0] == 'digraph "f" {'


@pytest.mark.parametrize("bad", [42, "graph", None, types.SimpleNamespace(graph="nope")])
def test_bad_graph_argument_is_a_type_error(bad, tmp_path):
    with pytest.raises(TypeError, match=r"graph must be a unigrad\.graph\.ir\.Graph"):
        to_dot(bad)
    with pytest.raises(TypeError, match="graph"):
        render(bad, tmp_path / "g.svg")


def test_node_ids_are_unique_and_valid():
    for graph in (small_graph(), fused_graph()):
        nodes, _ = parse(to_dot(graph))
        assert all(re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", n) for n in nodes)


# ----------------------------------------------------------------------------- render


def test_bad_suffix_is_a_value_error(tmp_path):
    graph = small_graph()
    for name in ("g.jpg", "g", "g.dot"):
        with pytest.raises(ValueError, match=r"path .*svg.*png.*pdf"):
            render(graph, tmp_path / name)
    with pytest.raises(ValueError, match="format"):
        render(graph, tmp_path / "g.svg", format="gif")
    with pytest.raises(ValueError, match=r"path .* must end with \.png"):
        render(graph, tmp_path / "g.svg", format="png")
    assert list(tmp_path.iterdir()) == []


def test_missing_graphviz_package_is_an_import_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match="pip install graphviz") as info:
        render(small_graph(), tmp_path / "g.svg")
    assert "to_dot()" in str(info.value)
    assert "[demo]" in str(info.value)


def test_missing_dot_program_is_a_runtime_error(monkeypatch, tmp_path):
    pytest.importorskip("graphviz")
    monkeypatch.setattr(viz.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match=r"`dot` program.*apt install graphviz") as info:
        render(small_graph(), tmp_path / "g.png")
    assert "brew install graphviz" in str(info.value) and "to_dot()" in str(info.value)


@pytest.mark.skipif(shutil.which("dot") is not None, reason="the dot program is installed")
def test_executable_not_found_from_the_real_package_is_a_runtime_error(monkeypatch, tmp_path):
    # Past the which() check, the real graphviz package fails to run dot: still a RuntimeError.
    pytest.importorskip("graphviz")
    monkeypatch.setattr(viz.shutil, "which", lambda name: "/usr/bin/dot")
    with pytest.raises(RuntimeError, match="`dot` program") as info:
        render(small_graph(), tmp_path / "g.svg")
    assert type(info.value) is RuntimeError          # ours, not graphviz.ExecutableNotFound
    assert not (tmp_path / "g.svg").exists()


class _FakeExecutableNotFound(RuntimeError):
    pass


def fake_graphviz(calls: list, fail: bool = False) -> types.ModuleType:
    """A stand-in ``graphviz`` module whose Source.render writes a fake image."""
    module = types.ModuleType("graphviz")

    class Source:
        def __init__(self, source):
            self.source = source

        def render(self, filename=None, *, outfile, format, **kwargs):
            if fail:
                raise _FakeExecutableNotFound("dot")
            calls.append({"source": self.source, "filename": filename, "outfile": outfile,
                          "format": format, **kwargs})
            Path(outfile).write_text(f"fake {format}")
            return str(outfile)

    module.Source = Source
    module.ExecutableNotFound = _FakeExecutableNotFound
    return module


def test_render_passes_the_dot_source_and_format(monkeypatch, tmp_path):
    calls: list = []
    monkeypatch.setitem(sys.modules, "graphviz", fake_graphviz(calls))
    monkeypatch.setattr(viz.shutil, "which", lambda name: "/usr/bin/dot")
    graph = small_graph()
    for name, fmt in (("a.svg", "svg"), ("sub/b.PNG", "png"), ("c.pdf", "pdf")):
        path = tmp_path / name
        assert render(graph, str(path)) == path
        assert path.read_text() == f"fake {fmt}"
        assert calls[-1]["format"] == fmt
        assert Path(calls[-1]["outfile"]) == path
        assert calls[-1]["source"] == to_dot(graph)
        # graphviz's intermediate source file never lands next to the image
        assert Path(calls[-1]["filename"]).parent != path.parent
    assert render(graph, tmp_path / "d.svg", format="svg") == tmp_path / "d.svg"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.svg", "b.PNG", "c.pdf", "d.svg",
                                                           "sub"]


def test_render_turns_executable_not_found_into_runtime_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", fake_graphviz([], fail=True))
    monkeypatch.setattr(viz.shutil, "which", lambda name: "/usr/bin/dot")
    with pytest.raises(RuntimeError, match="`dot` program is not installed") as info:
        render(small_graph(), tmp_path / "g.svg")
    assert isinstance(info.value.__cause__, _FakeExecutableNotFound)


@pytest.mark.skipif(shutil.which("dot") is None, reason="the Graphviz dot program is not installed")
def test_render_writes_an_svg(tmp_path):
    pytest.importorskip("graphviz")
    path = tmp_path / "graph.svg"
    assert render(fused_graph(), path) == path
    text = path.read_text()
    assert "<svg" in text and "tanh" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.svg"]
