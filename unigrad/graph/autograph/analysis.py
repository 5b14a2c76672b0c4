"""Static facts about a function's statements that the converter needs: which names a
statement assigns, which it reads, and which are live after it.

Scopes are Python's: a nested ``def``, ``lambda``, class or comprehension assigns
nothing in the enclosing function (only its own name, for ``def``/``class``), but
the names it reads count as reads where it stands.

Example:
    >>> import ast
    >>> from unigrad.graph.autograph.analysis import annotate_liveness, assigned_names
    >>> body = ast.parse("y = x\\nif c:\\n    y = 2\\n    t = 1\\nz = y").body
    >>> sorted(assigned_names(body[1:2]))
    ['t', 'y']
    >>> sorted(annotate_liveness(body, set()))  # live before the statements
    ['c', 'x']
    >>> sorted(body[1].live_out)
    ['y']
"""

from __future__ import annotations

import ast

_LOOPS = (ast.While, ast.For)


def _walk_scope(nodes: list):
    """Every node of ``nodes`` and their children, not entering nested scopes (a nested
    ``def``/``class`` itself and its decorators, defaults and bases are visited)."""
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            children = node.decorator_list + node.args.defaults + \
                [default for default in node.args.kw_defaults if default is not None]
        elif isinstance(node, ast.ClassDef):
            children = node.decorator_list + node.bases + [k.value for k in node.keywords]
        elif isinstance(node, ast.Lambda):
            children = node.args.defaults + \
                [default for default in node.args.kw_defaults if default is not None]
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            children = [node.generators[0].iter]
        else:
            children = list(ast.iter_child_nodes(node))
        stack.extend(reversed(children))


def assigned_names(nodes: list) -> set[str]:
    """Names that ``nodes`` bind in their function (assignments, loop targets, ``with ...
    as``, ``except ... as``, imports, nested ``def``/``class`` names, ``del``)."""
    names = set()
    for node in _walk_scope(nodes):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def read_names(nodes: list) -> set[str]:
    """Names that ``nodes`` read, nested scopes included (a closure reads where it stands)."""
    names = set()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def closure_reads(function: ast.FunctionDef) -> set[str]:
    """Names read by the functions and lambdas nested in ``function``: they may run at any
    later time, so these names count as live everywhere in ``function``."""
    names = set()
    for node in _walk_scope(function.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            names |= read_names(node.body if isinstance(node.body, list) else [node.body])
    return names


def declared_names(function: ast.FunctionDef, kind: type) -> set[str]:
    """Names declared ``global`` (``kind=ast.Global``) or ``nonlocal`` in ``function``."""
    names = set()
    for node in _walk_scope(function.body):
        if isinstance(node, kind):
            names.update(node.names)
    return names


def definitely_assigned(statement: ast.stmt) -> set[str]:
    """Names ``statement`` binds whichever way it runs (an ``if`` both of its branches bind,
    a ``with`` its body; a loop or ``try`` may skip its body: none)."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return assigned_names(targets)
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                              ast.ImportFrom)):
        return assigned_names([statement])
    if isinstance(statement, ast.If):
        return _block_assigned(statement.body) & _block_assigned(statement.orelse)
    if isinstance(statement, ast.With):
        return _block_assigned(statement.body) | assigned_names(
            [item.optional_vars for item in statement.items if item.optional_vars])
    return set()


def _block_assigned(statements: list) -> set[str]:
    names = set()
    for statement in statements:
        names |= definitely_assigned(statement)
    return names


def annotate_liveness(statements: list, live_out: set) -> set:
    """Set ``live_out`` (names read later before being reassigned) on every ``if``/``while``/
    ``for`` among ``statements`` (nested ones too) and ``live_head`` (names live at a loop's
    test) on loops; return the names live before ``statements``."""
    live = set(live_out)
    for statement in reversed(statements):
        live = _live_before(statement, live)
    return live


def _live_before(statement: ast.stmt, live_out: set) -> set:
    if isinstance(statement, ast.If):
        statement.live_out = set(live_out)
        return read_names([statement.test]) | annotate_liveness(statement.body, live_out) | \
            annotate_liveness(statement.orelse, live_out)
    if isinstance(statement, _LOOPS):
        return _loop_live_before(statement, live_out)
    if isinstance(statement, ast.Return):
        return read_names([statement])
    if isinstance(statement, (ast.With, ast.Try)):
        inner = [child for field in ("body", "handlers", "orelse", "finalbody")
                 for child in getattr(statement, field, [])]
        bodies = [handler.body for handler in inner if isinstance(handler, ast.ExceptHandler)]
        statements = [child for child in inner if not isinstance(child, ast.ExceptHandler)]
        live = set(live_out)
        for body in bodies + [statements]:
            live |= annotate_liveness(body, live_out)
        return live | read_names([statement])
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.FunctionDef,
                              ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        live_out = live_out - definitely_assigned(statement)
    return live_out | read_names([statement])


def _loop_live_before(loop: ast.While | ast.For, live_out: set) -> set:
    """Iterate the loop's liveness to its fixed point (a loop's body feeds its own head)."""
    test = loop.test if isinstance(loop, ast.While) else None
    tests = [test] if test is not None else []
    tests += getattr(loop, "extra_tests", [])
    head = set(live_out) | read_names(tests)
    while True:
        body_live = annotate_liveness(loop.body, head)
        if isinstance(loop, ast.For):
            body_live -= assigned_names([loop.target])
        new_head = head | body_live | annotate_liveness(loop.orelse, live_out)
        if new_head == head:
            break
        head = new_head
    loop.live_out = set(live_out)
    loop.live_head = head
    return head | (read_names([loop.iter]) if isinstance(loop, ast.For) else set())
