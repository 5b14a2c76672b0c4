"""Rewrite one function's syntax tree so its control flow goes through the runtime operators.

Each ``if``/``while``/``for`` becomes local functions for its branches or body and a
call ``ag__.if_stmt``/``ag__.while_stmt``/``ag__.for_stmt`` that decides at run time:
plain Python when the condition has a value, ``cond``/``while_loop``/``fori_loop``
when it is traced. The variables a statement assigns are reached from those
functions with ``nonlocal``; ``get_state``/``set_state`` read and write the ones
live after it (its *state*). ``and``/``or``/``not`` in conditions and ``a if c else
b`` become ``ag__.and_``/``or_``/``not_``/``if_exp``, and every call goes through
``ag__.converted_call`` so the functions it reaches are converted too. Line numbers
are the original ones, so errors and tracebacks name the user's lines.

Example:
    >>> import ast
    >>> from unigrad.graph.autograph.transformer import convert_function_tree
    >>> tree = ast.parse("def f(x):\\n    if x > 0:\\n        x = -x\\n    return x")
    >>> print(ast.unparse(convert_function_tree(tree.body[0], "example.py", set())))
    def f(x):
    <BLANKLINE>
        def get_state__1():
            return (x,)
    <BLANKLINE>
        def set_state__1(state__1):
            nonlocal x
            x, = state__1
    <BLANKLINE>
        def if_body__1():
            nonlocal x
            x = -x
    <BLANKLINE>
        def else_body__1():
            nonlocal x
        ag__.if_stmt(x > 0, if_body__1, else_body__1, get_state__1, set_state__1, ('x',),
                     'example.py:2', ())
        return x
"""

from __future__ import annotations

import ast
import itertools

from .analysis import (
    annotate_liveness,
    assigned_names,
    closure_reads,
    declared_names,
    definitely_assigned,
)
from .lowering import lower_jumps

RUNTIME = "ag__"
#: builtins that read their caller's frame: calling them through converted_call would
#: read the wrong one
_FRAME_BUILTINS = frozenset({"super", "locals", "globals", "vars", "eval", "exec", "dir"})
_CONTAINER_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "add",
                                "update", "setdefault", "popitem", "discard", "sort",
                                "reverse"})


def _runtime(attribute: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(id=RUNTIME, ctx=ast.Load()), attr=attribute,
                         ctx=ast.Load())


def _call(attribute: str, *arguments: ast.expr) -> ast.Call:
    return ast.Call(func=_runtime(attribute), args=list(arguments), keywords=[])


def _name(identifier: str, store: bool = False) -> ast.Name:
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _strings(names) -> ast.Tuple:
    return ast.Tuple(elts=[ast.Constant(name) for name in names], ctx=ast.Load())


def _lambda(body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=body)


def _function(name: str, body: list, parameters: tuple = ()) -> ast.FunctionDef:
    return ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in parameters],
                                      vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                                      defaults=[]),
        body=body or [ast.Pass()], decorator_list=[], returns=None, type_comment=None)


def _declarations(nonlocal_names: list, global_names: list) -> list:
    declarations = []
    if nonlocal_names:
        declarations.append(ast.Nonlocal(names=list(nonlocal_names)))
    if global_names:
        declarations.append(ast.Global(names=list(global_names)))
    return declarations


def _predefine(name: str) -> ast.Try:
    """``try: name / except NameError: name = ag__.Undefined('name')``: the name is bound in
    the enclosing function (``nonlocal`` needs it) without changing a value it has."""
    node = ast.Try(body=[ast.Expr(value=_name(name))],
                   handlers=[ast.ExceptHandler(
                       type=_name("NameError"), name=None,
                       body=[ast.Assign(targets=[_name(name, store=True)],
                                        value=_call("Undefined", ast.Constant(name)))])],
                   orelse=[], finalbody=[])
    node.predefinition = True
    return node


class _ReadChecks(ast.NodeTransformer):
    """Reads of predefined names become ``ag__.ld(name)``, which raises ``UnboundLocalError``
    as Python would where the name was never assigned (it holds ``Undefined``)."""

    def __init__(self, names: set):
        self.names = names

    def visit_FunctionDef(self, node):
        if node.name.startswith("get_state__"):  # state travels undefined values as they are
            return node
        return self.generic_visit(node)

    def visit_Try(self, node):
        if getattr(node, "predefinition", False):  # its read of the name stays as it is
            return node
        return self.generic_visit(node)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(_call("ld", node), node)
        return node


def _watched(nodes: list, modified: set) -> list[str]:
    """What a traced branch or loop body could change behind the graph's back: the
    containers it reads (``results.append(x)``) and the attributes it assigns
    (``self.count = ...``), checked at run time for changes."""
    watched = set()
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                    node.value.id not in modified:
                if isinstance(node.ctx, ast.Store):
                    watched.add(f"{node.value.id}.{node.attr}")
                elif node.attr in _CONTAINER_METHODS:
                    watched.add(node.value.id)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Name) and node.value.id not in modified:
                watched.add(node.value.id)
    return sorted(watched)


class _FunctionConverter(ast.NodeTransformer):
    """Convert the statements of one function (and, recursively, of its nested functions)."""

    def __init__(self, filename: str, class_cell: bool, counter=None):
        self.filename = filename
        self.class_cell = class_cell  # the original has a __class__ cell (zero-argument super)
        self.counter = counter or itertools.count(1)
        self.global_names: set = set()
        self.nonlocal_names: set = set()
        self.defined: set = set()
        self.captured: set = set()  # read by nested functions: live everywhere
        self.predefined: set = set()  # names that may hold Undefined: reads are checked
        self.first_parameter: str | None = None

    # ---------------------------------------------------------------- functions
    def convert(self, function: ast.FunctionDef) -> ast.FunctionDef:
        """``function`` with its jumps lowered and its statements converted (once per
        converter: a nested function gets a converter of its own)."""
        lower_jumps(function)
        annotate_liveness(function.body, set())
        self.captured = closure_reads(function)
        self.global_names = declared_names(function, ast.Global)
        self.nonlocal_names = declared_names(function, ast.Nonlocal)
        arguments = function.args
        self.defined = {argument.arg for argument in arguments.posonlyargs + arguments.args +
                        arguments.kwonlyargs + [arguments.vararg, arguments.kwarg] if argument}
        parameters = arguments.posonlyargs + arguments.args
        self.first_parameter = parameters[0].arg if parameters else None
        function.body = self._statements(function.body)
        if self.predefined:
            function.body = [_ReadChecks(self.predefined).visit(statement)
                             for statement in function.body]
        function.decorator_list = [self.visit(node) for node in function.decorator_list]
        function.args = self.visit(function.args)
        return function

    def visit_FunctionDef(self, node):
        return _FunctionConverter(self.filename, False, self.counter).convert(node)

    def visit_AsyncFunctionDef(self, node):
        return node

    def visit_ClassDef(self, node):
        return node

    def _statements(self, statements: list) -> list:
        """Convert a block; ``defined`` (names certainly bound, which need no predefinition)
        grows as the block goes and comes back as it was after it."""
        outer = set(self.defined)
        result = []
        for statement in statements:
            assigned = definitely_assigned(statement)
            converted = self.visit(statement)
            result.extend(converted if isinstance(converted, list) else [converted])
            self.defined |= assigned
        self.defined = outer
        return result

    # ---------------------------------------------------------------- expressions
    def visit_Call(self, node):
        self.generic_visit(node)
        function = node.func
        if isinstance(function, ast.Name) and function.id in _FRAME_BUILTINS:
            if function.id == "super" and not node.args and self.class_cell and \
                    self.first_parameter is not None:
                node.args = [_name("__class__"), _name(self.first_parameter)]
            return node
        return ast.copy_location(ast.Call(func=_runtime("converted_call"),
                                          args=[function] + node.args,
                                          keywords=node.keywords), node)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return ast.copy_location(_call("if_exp", self._condition(node.test),
                                       _lambda(node.body), _lambda(node.orelse),
                                       ast.Constant(self._location(node))), node)

    def _condition(self, test: ast.expr) -> ast.expr:
        """``and``/``or``/``not`` of a (visited) condition as runtime operators."""
        if isinstance(test, ast.BoolOp):
            operator = "and_" if isinstance(test.op, ast.And) else "or_"
            values = [self._condition(value) for value in test.values]
            combined = values[-1]
            for value in reversed(values[:-1]):
                combined = _call(operator, value, _lambda(combined))
            return ast.copy_location(combined, test)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return ast.copy_location(_call("not_", self._condition(test.operand)), test)
        return test

    def _location(self, node: ast.AST) -> str:
        return f"{self.filename}:{node.lineno}"

    # ---------------------------------------------------------------- statements
    def _state_functions(self, number: int, state: list) -> list:
        get_state = _function(f"get_state__{number}", [ast.Return(value=ast.Tuple(
            elts=[_name(name) for name in state], ctx=ast.Load()))])
        parameter = f"state__{number}"
        assignment = ast.Assign(targets=[ast.Tuple(elts=[_name(name, store=True)
                                                         for name in state], ctx=ast.Store())],
                                value=_name(parameter)) if state else ast.Pass()
        set_state = _function(f"set_state__{number}",
                              _declarations(state, []) + [assignment], (parameter,))
        return [get_state, set_state]

    def _body_function(self, name: str, body: list, modified: list,
                       parameters: tuple = ()) -> ast.FunctionDef:
        global_names = sorted(self.global_names & assigned_names(body))
        return _function(name, _declarations(modified, global_names) + body, parameters)

    def _watched(self, nodes: list, modified: list, state: list) -> list[str]:
        """:func:`_watched`, and ``=name`` for the variables of enclosing scopes (``global``,
        ``nonlocal``) the statement assigns without carrying them."""
        rebound = (self.global_names | self.nonlocal_names) & assigned_names(nodes)
        return _watched(nodes, set(modified)) + sorted(f"={name}" for name in rebound
                                                       if name not in state)

    def _modified(self, nodes: list) -> list:
        return sorted(assigned_names(nodes) - self.global_names)

    def _emit(self, node: ast.stmt, modified: list, definitions: list, call: ast.Call) -> list:
        predefined = [name for name in modified if name not in self.defined]
        self.predefined.update(predefined)
        statements = [_predefine(name) for name in predefined] + definitions + [ast.Expr(call)]
        for statement in statements:
            ast.copy_location(statement, node)
        return [ast.fix_missing_locations(statement) for statement in statements]

    def visit_If(self, node):
        number = next(self.counter)
        modified = self._modified(node.body + node.orelse)
        state = sorted(set(modified) & (node.live_out | self.captured))
        watched = self._watched(node.body + node.orelse, modified, state)
        test = self._condition(self.visit(node.test))
        body = self._statements(node.body)
        orelse = self._statements(node.orelse)
        definitions = self._state_functions(number, state) + [
            self._body_function(f"if_body__{number}", body, modified),
            self._body_function(f"else_body__{number}", orelse, modified)]
        call = _call("if_stmt", test, _name(f"if_body__{number}"), _name(f"else_body__{number}"),
                     _name(f"get_state__{number}"), _name(f"set_state__{number}"),
                     _strings(state), ast.Constant(self._location(node)), _strings(watched))
        return self._emit(node, modified, definitions, call)

    def visit_While(self, node):
        number = next(self.counter)
        modified = self._modified(node.body)
        state = sorted(set(modified) & (node.live_out | node.live_head | self.captured))
        watched = self._watched(node.body, modified, state)
        test = self._condition(self.visit(node.test))
        body = self._statements(node.body)
        definitions = self._state_functions(number, state) + [
            _function(f"loop_test__{number}", [ast.Return(value=test)]),
            self._body_function(f"loop_body__{number}", body, modified)]
        call = _call("while_stmt", _name(f"loop_test__{number}"), _name(f"loop_body__{number}"),
                     _name(f"get_state__{number}"), _name(f"set_state__{number}"),
                     _strings(state), ast.Constant(self._location(node)), _strings(watched))
        return self._emit(node, modified, definitions, call)

    def visit_For(self, node):
        number = next(self.counter)
        modified = self._modified(node.body + [node.target])
        state = sorted(set(modified) & (node.live_out | node.live_head | self.captured))
        watched = self._watched(node.body, modified, state)
        iterable = self.visit(node.iter)
        target = self.visit(node.target)
        iterate = f"iterate__{number}"
        body = [ast.Assign(targets=[target], value=_name(iterate))] + \
            self._statements(node.body)
        definitions = self._state_functions(number, state) + [
            self._body_function(f"loop_body__{number}", body, modified, (iterate,))]
        extra_tests = getattr(node, "extra_tests", [])
        extra_test = ast.Constant(None)
        if extra_tests:
            combined = extra_tests[0] if len(extra_tests) == 1 else \
                ast.BoolOp(op=ast.And(), values=extra_tests)
            definitions.append(_function(f"extra_test__{number}", [ast.Return(
                value=self._condition(self.visit(combined)))]))
            extra_test = _name(f"extra_test__{number}")
        call = _call("for_stmt", iterable, extra_test, _name(f"loop_body__{number}"),
                     _name(f"get_state__{number}"), _name(f"set_state__{number}"),
                     _strings(state), ast.Constant(self._location(node)), _strings(watched))
        return self._emit(node, modified, definitions, call)


def convert_function_tree(function: ast.FunctionDef, filename: str, freevars: set) -> \
        ast.FunctionDef:
    """``function`` (a parsed ``def``, decorators removed) with its control flow converted;
    ``freevars`` are the original's closure names (``__class__`` enables ``super()``)."""
    function.decorator_list = []
    return _FunctionConverter(filename, "__class__" in freevars).convert(function)



def convert_lambda_tree(function: ast.Lambda, filename: str) -> ast.Lambda:
    """``function`` (a parsed ``lambda``) with its calls, conditional expressions and their
    ``and``/``or``/``not`` converted."""
    return _FunctionConverter(filename, False).visit(function)
