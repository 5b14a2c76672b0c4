"""Draw a graph-mode :class:`~unigrad.graph.ir.Graph` with Graphviz.

:func:`to_dot` turns a graph (or anything with a ``.graph`` attribute holding
one, such as a lowered or compiled function) into Graphviz DOT source; it needs
nothing beyond unigrad. :func:`render` writes that drawing to an SVG, PNG or
PDF file and needs the ``graphviz`` Python package (``pip install graphviz``)
and Graphviz's ``dot`` program.

The drawing has one ellipse per graph input (``input i`` and its type, e.g.
``f32[64,32]``), one box per equation (the primitive's name and its short
parameters), one ellipse per output (``output i``), and an edge from the
producer of every operand to its consumer, labelled with the value's type.
Scalar literal operands are written into the consumer's label
(``mul(·, 2.0)``: ``·`` stands for an operand arriving along an edge); array
literals get a small ``const`` box of their own. A fused kernel (an equation
whose primitive carries a ``body`` graph) is a filled cluster holding the ops it
runs as one kernel.

Example:
    >>> import numpy as np
    >>> import unigrad
    >>> from unigrad.graph.ir import Eqn, Graph, Literal, Var
    >>> from unigrad.ops._primitive import PRIMITIVES
    >>> from unigrad.viz import to_dot
    >>> x = Var((3,), np.float32)
    >>> y = Var((3,), np.float32)
    >>> graph = Graph([x], [Eqn(PRIMITIVES["mul"], [x, Literal(2.0)], y, {})], [y])
    >>> print(to_dot(graph))
    digraph "unigrad" {
      graph [rankdir="TB", fontname="Helvetica", fontsize="10"];
      node [fontname="Helvetica", fontsize="10"];
      edge [fontname="Helvetica", fontsize="8", color="#555555", fontcolor="#555555"];
      in0 [label="input 0\\nf32[3]", shape="ellipse", style="filled", fillcolor="#d9f2d9"];
      op0 [label="mul(·, 2.0)", shape="box", style="rounded", tooltip="f32[3] = mul(·, 2.0)"];
      out0 [label="output 0\\nf32[3]", shape="ellipse", style="filled", fillcolor="#dbe8fb"];
      in0 -> op0 [label="f32[3]"];
      op0 -> out0 [label="f32[3]"];
    }
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .graph.ir import Eqn, Graph, Literal, Var, _param_text

__all__ = ["SUPPORTED_FORMATS", "render", "to_dot"]

#: The image formats :func:`render` writes, chosen by the suffix of its ``path``.
SUPPORTED_FORMATS: tuple[str, ...] = ("svg", "png", "pdf")

_MAX_PARAM_CHARS = 40      # a parameter's value text in a label
_MAX_LITERAL_CHARS = 24    # a scalar literal written into its consumer's label
_MAX_CLUSTER_CHARS = 60    # the list of ops in a fused cluster's label
_MAX_TOOLTIP_CHARS = 500
_SMALL_CONST = 4           # array literals with at most this many elements show their values
_OPERAND = "·"             # stands for an operand that arrives along an edge

_INPUT_STYLE = {"shape": "ellipse", "style": "filled", "fillcolor": "#d9f2d9"}
_OUTPUT_STYLE = {"shape": "ellipse", "style": "filled", "fillcolor": "#dbe8fb"}
_OP_STYLE = {"shape": "box", "style": "rounded"}
_FUSED_OP_STYLE = {"shape": "box", "style": "rounded,filled", "fillcolor": "white"}
_CONST_STYLE = {"shape": "box", "style": "dashed", "fontsize": "8"}
_FREE_STYLE = {"shape": "ellipse", "style": "dashed", "color": "#cc0000"}
_ANCHOR_STYLE = {"shape": "box", "style": "dashed,filled", "fillcolor": "white"}
_CLUSTER_STYLE = {"style": "filled,rounded", "fillcolor": "#fde9c9", "color": "#d08a1a"}

_NO_PACKAGE = ("unigrad.viz.render() needs the graphviz Python package: pip install graphviz "
               "(it is part of unigrad's [demo] extra). unigrad.viz.to_dot() gives the DOT "
               "source without it.")
_NO_DOT = ("unigrad.viz.render() cannot draw: the Graphviz `dot` program is not installed "
           "(or not on PATH). Install Graphviz, e.g. `apt install graphviz` or "
           "`brew install graphviz`. unigrad.viz.to_dot() still gives the DOT source without it.")


def _escape(text: str) -> str:
    """Text made safe inside a double-quoted DOT string (one line: newlines become spaces)."""
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _quote(text: str) -> str:
    return f'"{_escape(text)}"'


def _label(lines: list[str]) -> str:
    """A multi-line DOT label: every line escaped, joined by DOT's ``\\n`` line break."""
    return '"' + "\\n".join(_escape(line) for line in lines) + '"'


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _type_text(shape, dtype) -> str:
    return Var(shape, dtype).type_text()


def _literal_inline(literal: Literal) -> bool:
    """Whether a literal goes into its consumer's label (everything but arrays with ndim > 0)."""
    return not (literal.is_array and getattr(literal.value, "ndim", 0) > 0)


class _Dot:
    """Accumulates node statements (with indentation, for clusters) and edges."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.free: list[str] = []
        self.edges: list[str] = []
        self.free_ids: dict[Var, str] = {}
        self._counts: dict[str, int] = {}

    def new_id(self, kind: str) -> str:
        count = self._counts.get(kind, 0)
        self._counts[kind] = count + 1
        return f"{kind}{count}"

    @staticmethod
    def statement(node_id: str, lines: list[str], style: dict, tooltip: str | None = None) -> str:
        attrs = [f"label={_label(lines)}"]
        attrs.extend(f"{key}={_quote(value)}" for key, value in style.items())
        if tooltip is not None:
            attrs.append(f"tooltip={_quote(_truncate(tooltip, _MAX_TOOLTIP_CHARS))}")
        return f"{node_id} [{', '.join(attrs)}];"

    def node(self, kind: str, lines: list[str], style: dict, depth: int,
             tooltip: str | None = None) -> str:
        node_id = self.new_id(kind)
        self.lines.append("  " * depth + self.statement(node_id, lines, style, tooltip))
        return node_id

    def edge(self, source: str, target: str, label: str) -> None:
        self.edges.append(f"{source} -> {target} [label={_quote(label)}];")

    def free_var(self, var: Var) -> str:
        """The node of a var no input or eqn defines (an invalid graph is still drawn)."""
        if var not in self.free_ids:
            node_id = self.new_id("free")
            self.free.append(self.statement(node_id, ["undefined", var.type_text()], _FREE_STYLE))
            self.free_ids[var] = node_id
        return self.free_ids[var]


def _resolve(dot: _Dot, env: dict, atom: Var | Literal) -> str | Literal:
    """An operand's source: the id of the node producing it, or a literal."""
    if isinstance(atom, Var):
        source = env.get(atom)
        return dot.free_var(atom) if source is None else source
    return atom


def _const_node(dot: _Dot, literal: Literal, depth: int) -> str:
    value = literal.value
    lines = ["const", _type_text(value.shape, value.dtype)]
    if 0 < getattr(value, "size", _SMALL_CONST + 1) <= _SMALL_CONST:
        try:
            lines.append(_truncate(repr(value.tolist()), _MAX_PARAM_CHARS))
        except Exception:  # an array type without tolist(): the type alone will do
            pass
    return dot.node("const", lines, _CONST_STYLE, depth)


def _param_lines(params: dict) -> tuple[list[str], list[str]]:
    """Short ``key=value`` lines for a label, and the untruncated ones for a tooltip."""
    short, full = [], []
    for key, value in params.items():
        if str(key).startswith("_"):
            continue
        text = f"{key}={_param_text(value)}"
        full.append(text)
        short.append(_truncate(text, _MAX_PARAM_CHARS))
    return short, full


def _emit_op(dot: _Dot, eqn: Eqn, env: dict, depth: int, style: dict) -> str:
    operands: list[str] = []
    incoming: list[tuple[str, str]] = []
    inline = False
    for atom in eqn.inputs:
        source = _resolve(dot, env, atom)
        if isinstance(source, Literal):
            if _literal_inline(source):
                operands.append(_truncate(source.text(), _MAX_LITERAL_CHARS))
                inline = True
                continue
            const_id = _const_node(dot, source, depth)
            incoming.append((const_id, _type_text(source.value.shape, source.value.dtype)))
        else:
            incoming.append((source, atom.type_text()))
        operands.append(_OPERAND)
    name = str(eqn.prim.name)
    call = f"{name}({', '.join(operands)})"
    short, full = _param_lines(eqn.params)
    tooltip = f"{eqn.out.type_text()} = {name}({', '.join(operands + full)})"
    node_id = dot.node("op", [call if inline else name, *short], style, depth, tooltip)
    for source, label in incoming:
        dot.edge(source, node_id, label)
    return node_id


def _emit_fused(dot: _Dot, eqn: Eqn, body: Graph, env: dict, depth: int) -> str:
    """A fused kernel: a filled cluster of its body's ops; returns the node giving its output."""
    cluster = dot.new_id("cluster_fused")
    pad = "  " * (depth + 1)
    ops = ", ".join(str(e.prim.name) for e in body.eqns) or "no ops"
    short, _ = _param_lines(eqn.params)
    title = [_truncate(f"{eqn.prim.name}: {ops}", _MAX_CLUSTER_CHARS), *short]
    dot.lines.append("  " * depth + f"subgraph {cluster} {{")
    dot.lines.append(pad + f"label={_label(title)};")
    dot.lines.extend(pad + f"{key}={_quote(value)};" for key, value in _CLUSTER_STYLE.items())
    anchor: list[str] = []

    def anchor_id() -> str:
        # A stand-in for the kernel where its body does not line up with the eqn.
        if not anchor:
            anchor.append(dot.node("op", [str(eqn.prim.name)], _ANCHOR_STYLE, depth + 1))
        return anchor[0]

    body_env: dict = {}
    if len(body.inputs) == len(eqn.inputs):
        # The body's inputs are the eqn's operands, in order.
        for inner, outer in zip(body.inputs, eqn.inputs):
            body_env[inner] = _resolve(dot, env, outer)
    else:
        for index, inner in enumerate(body.inputs):
            body_env[inner] = dot.node("param", [f"param {index}", inner.type_text()],
                                       _CONST_STYLE, depth + 1)
        for atom in eqn.inputs:
            source = _resolve(dot, env, atom)
            if isinstance(source, Literal):
                if _literal_inline(source):
                    continue
                source = _const_node(dot, source, depth)
            dot.edge(source, anchor_id(), _type_text(atom.shape, atom.dtype))
    _emit_eqns(dot, body.eqns, body_env, depth + 1, _FUSED_OP_STYLE)
    produced = {e.out for e in body.eqns}
    result = body.outputs[0] if body.outputs else None
    if isinstance(result, Var) and result in produced:
        out_id = body_env[result]
    else:
        out_id = anchor_id()
    dot.lines.append("  " * depth + "}")
    return out_id


def _emit_eqns(dot: _Dot, eqns: list, env: dict, depth: int, style: dict) -> None:
    for eqn in eqns:
        body = getattr(eqn.prim, "body", None)
        if isinstance(body, Graph):
            env[eqn.out] = _emit_fused(dot, eqn, body, env, depth)
        else:
            env[eqn.out] = _emit_op(dot, eqn, env, depth, style)


def _as_graph(graph: Any) -> Graph:
    if isinstance(graph, Graph):
        return graph
    inner = getattr(graph, "graph", None)
    if isinstance(inner, Graph):
        return inner
    raise TypeError("graph must be a unigrad.graph.ir.Graph or an object with a .graph "
                    f"attribute holding one (a lowered or compiled function), got "
                    f"{type(graph).__name__}")


def to_dot(graph: Any, *, name: str = "unigrad") -> str:
    """Graphviz DOT source drawing ``graph``.

    Args:
        graph: a :class:`~unigrad.graph.ir.Graph`, or an object with a ``.graph``
            attribute holding one (a lowered or compiled function).
        name: the name of the DOT digraph.

    Returns:
        The DOT source: paste it into any Graphviz viewer, or pass it to
        :func:`render` (or ``graphviz.Source``) to get an image.

    Raises:
        TypeError: ``graph`` is neither a Graph nor has a ``.graph`` holding one.

    Example:
        >>> import numpy as np
        >>> import unigrad
        >>> from unigrad.graph.ir import Eqn, Graph, Var
        >>> from unigrad.ops._primitive import PRIMITIVES
        >>> x = Var((64, 32), np.float32)
        >>> t = Var((32, 64), np.float32)
        >>> h = Var((32, 64), np.float32)
        >>> graph = Graph([x], [Eqn(PRIMITIVES["transpose"], [x], t, {"axes": (1, 0)}),
        ...                     Eqn(PRIMITIVES["tanh"], [t], h, {})], [h])
        >>> dot = to_dot(graph, name="layer")
        >>> print(dot.splitlines()[0])
        digraph "layer" {
        >>> print("\\n".join(line for line in dot.splitlines() if "->" in line))
          in0 -> op0 [label="f32[64,32]"];
          op0 -> op1 [label="f32[32,64]"];
          op1 -> out0 [label="f32[32,64]"];
        >>> 'label="transpose\\\\naxes=(1, 0)"' in dot
        True
    """
    graph = _as_graph(graph)
    dot = _Dot()
    env: dict = {}
    for index, var in enumerate(graph.inputs):
        if isinstance(var, Var):
            env[var] = dot.node("in", [f"input {index}", var.type_text()], _INPUT_STYLE, 1)
        else:
            dot.node("in", [f"input {index}", _truncate(repr(var), _MAX_LITERAL_CHARS)],
                     _INPUT_STYLE, 1)
    _emit_eqns(dot, graph.eqns, env, 1, _OP_STYLE)
    for index, atom in enumerate(graph.outputs):
        if isinstance(atom, Literal):
            node_id = dot.node("out", [f"output {index}",
                                       _truncate(atom.text(), _MAX_LITERAL_CHARS)],
                               _OUTPUT_STYLE, 1)
            continue
        node_id = dot.node("out", [f"output {index}", atom.type_text()], _OUTPUT_STYLE, 1)
        source = _resolve(dot, env, atom)
        if isinstance(source, str):
            dot.edge(source, node_id, atom.type_text())
    lines = [
        f"digraph {_quote(name)} {{",
        '  graph [rankdir="TB", fontname="Helvetica", fontsize="10"];',
        '  node [fontname="Helvetica", fontsize="10"];',
        '  edge [fontname="Helvetica", fontsize="8", color="#555555", fontcolor="#555555"];',
        *dot.lines,
        *("  " + line for line in dot.free),
        *("  " + line for line in dot.edges),
        "}",
    ]
    return "\n".join(lines)


def _format_for(path: Path, format: str | None) -> str:
    suffix = path.suffix.lower().lstrip(".")
    supported = ", ".join(f".{fmt}" for fmt in SUPPORTED_FORMATS)
    if format is not None:
        fmt = str(format).lower().lstrip(".")
        if fmt not in SUPPORTED_FORMATS:
            raise ValueError(f"format must be one of {', '.join(SUPPORTED_FORMATS)} (or None to "
                             f"use the suffix of path), got {format!r}")
        if suffix != fmt:
            raise ValueError(f"path {str(path)!r} must end with .{fmt} to be written as "
                             f"format={format!r}")
        return fmt
    if suffix not in SUPPORTED_FORMATS:
        raise ValueError(f"path {str(path)!r} has an unsupported suffix "
                         f"{path.suffix or '(none)'!r}: the image format is taken from it, "
                         f"supported formats are {supported}")
    return suffix


def _import_graphviz():
    try:
        import graphviz
    except ImportError as error:
        raise ImportError(_NO_PACKAGE) from error
    return graphviz


def render(graph: Any, path: str | os.PathLike, *, format: str | None = None) -> Path:
    """Draw ``graph`` into an image file at ``path`` with Graphviz.

    Args:
        graph: a :class:`~unigrad.graph.ir.Graph`, or an object with a ``.graph``
            attribute holding one (a lowered or compiled function).
        path: the file to write; its suffix (``.svg``, ``.png`` or ``.pdf``)
            chooses the format. Missing parent folders are created.
        format: optional, one of :data:`SUPPORTED_FORMATS`; it must agree with
            the suffix of ``path``.

    Returns:
        ``path``, as a :class:`pathlib.Path`.

    Raises:
        TypeError: ``graph`` is neither a Graph nor has a ``.graph`` holding one.
        ValueError: ``path`` has no supported suffix, or ``format`` is not
            supported or disagrees with it.
        ImportError: the ``graphviz`` Python package is not installed
            (``pip install graphviz``); :func:`to_dot` works without it.
        RuntimeError: Graphviz's ``dot`` program is not installed.

    Example (needs Graphviz, so it is not run here; :func:`to_dot` needs nothing)::

        from unigrad.viz import render
        render(graph, "graph.svg")
    """
    source = to_dot(graph)
    path = Path(path)
    fmt = _format_for(path, format)
    graphviz = _import_graphviz()
    if shutil.which("dot") is None:
        raise RuntimeError(_NO_DOT)
    path.parent.mkdir(parents=True, exist_ok=True)
    # The DOT source file graphviz writes on the way goes to a temporary folder, so that
    # a user's own ``<name>.gv`` next to ``path`` is never overwritten.
    with tempfile.TemporaryDirectory(prefix="unigrad-viz-") as folder:
        try:
            graphviz.Source(source).render(filename=Path(folder) / "graph.gv", outfile=path,
                                           format=fmt, cleanup=True, quiet=True)
        except graphviz.ExecutableNotFound as error:
            raise RuntimeError(_NO_DOT) from error
    return path
