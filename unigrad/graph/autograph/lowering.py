"""Rewrite ``break``, ``continue`` and early ``return`` as assignments to flag variables.

A converted loop or ``if`` becomes a call taking functions, and a jump cannot leave
a function, so jumps become data (as TensorFlow's AutoGraph does): ``break`` sets a
flag the loop's condition reads, ``continue`` a flag the rest of the body is
guarded by, and ``return value`` sets ``do_return``/``retval_`` and guards what
follows. Eagerly the rewritten code does exactly what the original did; traced, the
flags are boolean tensors carried by ``cond``/``while_loop``.

Example:
    >>> import ast
    >>> from unigrad.graph.autograph.lowering import lower_jumps
    >>> tree = ast.parse("def f(x):\\n    while x:\\n        if x > 5:\\n            break\\n"
    ...                  "        x -= 1\\n    return x")
    >>> function = lower_jumps(tree.body[0])
    >>> print(ast.unparse(function))
    def f(x):
        break__1 = False
        while not break__1 and x:
            if x > 5:
                break__1 = True
            if not break__1:
                x -= 1
        return x
"""

from __future__ import annotations

import ast
import itertools

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPOUND = (ast.If, ast.While, ast.For, ast.With, ast.Try)
RETURN_FLAG = "do_return"
RETURN_VALUE = "retval_"


def _contains(nodes: list, kinds: tuple, through_loops: bool = True) -> bool:
    """Whether ``nodes`` hold a statement of ``kinds`` (not looking inside nested scopes,
    nor inside nested loops unless ``through_loops``)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _SCOPES) or (not through_loops and isinstance(node, (ast.While,
                                                                              ast.For))):
            continue
        stack.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)
                     or isinstance(child, ast.ExceptHandler))
    return False


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _assign(identifier: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(identifier, store=True)], value=value)


def _not_any(flags: list[str]) -> ast.expr:
    """``not (flag1 or flag2 ...)``."""
    operand = _name(flags[0]) if len(flags) == 1 else \
        ast.BoolOp(op=ast.Or(), values=[_name(flag) for flag in flags])
    return ast.UnaryOp(op=ast.Not(), operand=operand)


def _guard_rest(statements: list, flags: list[str], jump_kinds: tuple, rewrite) -> list:
    """Rewrite each statement with ``rewrite``; once one may jump (holds ``jump_kinds``),
    the statements after it run only under ``if not (flags...)``."""
    result = []
    for index, statement in enumerate(statements):
        jumps = _contains([statement], jump_kinds)
        result.extend(rewrite(statement))
        rest = statements[index + 1:]
        if jumps and rest:
            guarded = _guard_rest(rest, flags, jump_kinds, rewrite)
            result.append(ast.copy_location(ast.If(test=_not_any(flags), body=guarded,
                                                   orelse=[]), rest[0]))
            break
    return result


class _Counter:
    def __init__(self):
        self._numbers = itertools.count(1)

    def next_name(self, prefix: str) -> str:
        return f"{prefix}__{next(self._numbers)}"


def _lower_loop_jumps(loop: ast.While | ast.For, counter: _Counter) -> list:
    """``break``/``continue``/``else`` of one loop (its nested loops done already)."""
    has_break = _contains(loop.body, (ast.Break,), through_loops=False)
    has_continue = _contains(loop.body, (ast.Continue,), through_loops=False)
    before, after = [], []
    flags = []
    break_flag = continue_flag = None
    if has_break:
        break_flag = counter.next_name("break")
        flags.append(break_flag)
        before.append(ast.copy_location(_assign(break_flag, ast.Constant(False)), loop))
    if has_continue:
        continue_flag = counter.next_name("continue")
        flags.append(continue_flag)

    def rewrite(statement: ast.stmt) -> list:
        if isinstance(statement, ast.Break):
            return [ast.copy_location(_assign(break_flag, ast.Constant(True)), statement)]
        if isinstance(statement, ast.Continue):
            return [ast.copy_location(_assign(continue_flag, ast.Constant(True)), statement)]
        if isinstance(statement, (ast.While, ast.For)) or isinstance(statement, _SCOPES):
            return [statement]
        _rewrite_blocks(statement, lambda block: _guard_rest(block, flags, (ast.Break,
                                                                             ast.Continue),
                                                             rewrite))
        return [statement]

    if flags:
        body = _guard_rest(loop.body, flags, (ast.Break, ast.Continue), rewrite)
        if continue_flag is not None:
            body.insert(0, ast.copy_location(_assign(continue_flag, ast.Constant(False)), loop))
        loop.body = body
    if break_flag is not None:
        _add_loop_test(loop, _not_any([break_flag]))
        if loop.orelse:
            after.append(ast.copy_location(ast.If(test=_not_any([break_flag]), body=loop.orelse,
                                                  orelse=[]), loop.orelse[0]))
    else:
        after.extend(loop.orelse)
    loop.orelse = []
    return before + [loop] + after


def _add_loop_test(loop: ast.While | ast.For, test: ast.expr) -> None:
    """Make the loop also stop when ``test`` is false (checked before each iteration)."""
    if isinstance(loop, ast.While):
        loop.test = ast.BoolOp(op=ast.And(), values=[test, loop.test])
    else:
        loop.extra_tests = [test] + getattr(loop, "extra_tests", [])


def _rewrite_blocks(statement: ast.stmt, rewrite_block) -> None:
    """Apply ``rewrite_block`` to each statement list held by a compound statement."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(statement, field, None)
        if block:
            setattr(statement, field, rewrite_block(block))
    for handler in getattr(statement, "handlers", []):
        handler.body = rewrite_block(handler.body)


class _LoopJumps(ast.NodeTransformer):
    """Lower the jumps of every loop, innermost first; nested scopes are left alone."""

    def __init__(self, counter: _Counter):
        self.counter = counter

    def _loop(self, node):
        self.generic_visit(node)
        return _lower_loop_jumps(node, self.counter)

    visit_While = visit_For = _loop

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


def _definitely_returns(statements: list) -> bool:
    """Whether running ``statements`` always ends in a ``return``."""
    for statement in statements:
        if isinstance(statement, ast.Return):
            return True
        if isinstance(statement, ast.If) and _definitely_returns(statement.body) and \
                _definitely_returns(statement.orelse):
            return True
    return False


def _needs_return_lowering(function: ast.FunctionDef) -> bool:
    """Whether a ``return`` stands inside an ``if``/loop/``with``/``try`` of ``function``."""
    return any(isinstance(statement, _COMPOUND) and _contains([statement], (ast.Return,))
               for statement in function.body)


def _lower_returns(statements: list) -> list:
    """Returns of one block; the rest of a block after an ``if`` that always returns on
    one side moves into the other side, so both sides define ``retval_``."""
    result = []
    for index, statement in enumerate(statements):
        rest = statements[index + 1:]
        if isinstance(statement, ast.Return):
            value = statement.value if statement.value is not None else ast.Constant(None)
            result += [ast.copy_location(_assign(RETURN_FLAG, ast.Constant(True)), statement),
                       ast.copy_location(_assign(RETURN_VALUE, value), statement)]
            return result
        if isinstance(statement, ast.If) and rest and _contains([statement], (ast.Return,)):
            if _definitely_returns(statement.body):
                statement.orelse = statement.orelse + rest
                return result + _lower_returns([statement])
            if _definitely_returns(statement.orelse):
                statement.body = statement.body + rest
                return result + _lower_returns([statement])
        returns = _contains([statement], (ast.Return,))
        if isinstance(statement, _COMPOUND) and returns:
            _rewrite_blocks(statement, _lower_returns)
            if isinstance(statement, (ast.While, ast.For)):
                _add_loop_test(statement, _not_any([RETURN_FLAG]))
        result.append(statement)
        if returns and rest:
            guarded = _lower_returns(rest)
            result.append(ast.copy_location(ast.If(test=_not_any([RETURN_FLAG]), body=guarded,
                                                   orelse=[]), rest[0]))
            return result
    return result


def lower_jumps(function: ast.FunctionDef) -> ast.FunctionDef:
    """``function`` with the ``break``/``continue`` of its loops and (where one stands
    inside a compound statement) its ``return`` statements lowered to flags."""
    _LoopJumps(_Counter()).generic_visit(function)
    if not _needs_return_lowering(function):
        return function
    body = function.body
    if not _definitely_returns(body):
        body = body + [ast.Return(value=ast.Constant(None))]
    first = function.body[0]
    prologue = [ast.copy_location(_assign(RETURN_FLAG, ast.Constant(False)), first),
                ast.copy_location(_assign(RETURN_VALUE, ast.Attribute(
                    value=_name("ag__"), attr="UNDEFINED_RETURN", ctx=ast.Load())), first)]
    epilogue = ast.Return(value=_name(RETURN_VALUE))
    function.body = prologue + _lower_returns(body) + [ast.copy_location(epilogue, body[-1])]
    ast.fix_missing_locations(function)
    return function
