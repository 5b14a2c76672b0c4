"""``convert(fn)``: the function with its control flow rewritten, and ``converted_call``, which
converts the user functions a converted function calls, when it calls them.

A function is converted from its source (``inspect.getsource``), compiled with the
original's file name and line numbers, globals, defaults and closure cells, so it
sees and changes the same variables. Conversions are cached per code object.
Functions of unigrad, of the standard library and of installed packages, builtins,
generators, functions without source and lambdas sharing their line with another
lambda of the same parameters run as they are.

Example:
    >>> import unigrad as ug
    >>> from unigrad.graph.autograph import convert
    >>> def relu_sum(x):
    ...     if x.sum() > 0:
    ...         return x.sum()
    ...     return x.sum() * 0
    >>> f = ug.jit(convert(relu_sum))
    >>> f(ug.tensor([1.0, 2.0])), f(ug.tensor([-1.0, -2.0])), f.trace_count
    (tensor(3.), tensor(-0.), 1)
"""

from __future__ import annotations
import __future__

import ast
import copy
import functools
import inspect
import linecache
import os
import sysconfig
import textwrap
import threading
import types
import weakref
from collections.abc import Callable

from ... import _state
from . import operators, values
from .transformer import RUNTIME, convert_function_tree, convert_lambda_tree

_local = _state.local
_PACKAGE_DIRECTORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
_LIBRARY_DIRECTORIES = tuple(sorted({os.path.abspath(path) for key in ("stdlib", "platstdlib",
                                                                       "purelib", "platlib")
                                     if (path := sysconfig.get_paths().get(key))}))
#: the ``from __future__`` flags a converted function keeps from its original
_FUTURE_FLAGS = __future__.annotations.compiler_flag | __future__.generator_stop.compiler_flag
_NOT_CONVERTED = object()
_MISSING = object()
_lock = threading.Lock()
_compiling = threading.RLock()
#: code object -> its converted code object (or _NOT_CONVERTED)
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: unigrad function closing over user functions -> rebuilt over them converted (or None)
_closures: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: converted code objects and those nested in them (not converted again)
_converted: weakref.WeakSet = weakref.WeakSet()


def _is_user_code(code: types.CodeType) -> bool:
    """Whether ``code`` belongs to the user: not unigrad, the standard library or an
    installed package."""
    if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE |
                        inspect.CO_ASYNC_GENERATOR):
        return False
    if code.co_filename.startswith("<frozen") or _is_unigrad_code(code):
        return False
    return not os.path.abspath(code.co_filename).startswith(
        tuple(directory + os.sep for directory in _LIBRARY_DIRECTORIES))


def _parse(function: types.FunctionType) -> ast.FunctionDef | ast.Lambda | None:
    """The ``def`` (or ``lambda``) of ``function`` from its source, at its own line numbers
    (None when the source cannot be found)."""
    if function.__code__.co_name == "<lambda>":
        return _parse_lambda(function)
    try:
        source = textwrap.dedent(inspect.getsource(function.__code__))  # not __wrapped__
    except (OSError, TypeError):
        return None
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) or \
            tree.body[0].name != function.__code__.co_name:
        return None
    ast.increment_lineno(tree, function.__code__.co_firstlineno - 1)
    return tree.body[0]


def _parse_lambda(function: types.FunctionType) -> ast.Lambda | None:
    """The one ``lambda`` of the source file on the function's first line with its
    parameters (None if there is no single one)."""
    code = function.__code__
    source = "".join(linecache.getlines(code.co_filename, function.__globals__))
    parameters = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    candidates = [node for node in _lambdas_by_line(code.co_filename, source).get(
                  code.co_firstlineno, ()) if [a.arg for a in node.args.posonlyargs +
                                               node.args.args + node.args.kwonlyargs]
                  == parameters]
    return copy.deepcopy(candidates[0]) if len(candidates) == 1 else None


@functools.lru_cache(maxsize=32)
def _lambdas_by_line(filename: str, source: str) -> dict:
    """The ``lambda`` nodes of a source file by first line (each file is parsed once)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    lambdas: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            lambdas.setdefault(node.lineno, []).append(node)
    return lambdas


def _converted_code(function: types.FunctionType) -> types.CodeType | None:
    """The converted code object of ``function`` (cached per code object)."""
    code = function.__code__
    with _lock:
        cached = _cache.get(code)
    if cached is not None:
        return None if cached is _NOT_CONVERTED else cached
    if _is_user_code(code):
        with _compiling:  # CPython 3.11's ast and compile are not safe in several threads
            converted = _compile(function)
    else:
        converted = None
    with _lock:
        _cache[code] = _NOT_CONVERTED if converted is None else converted
        if converted is not None:  # its nested functions are converted already
            _converted.update(_code_objects(converted))
    return converted


def _code_objects(code: types.CodeType) -> list:
    """``code`` and the code objects nested in it."""
    found = [code]
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found.extend(_code_objects(constant))
    return found


def _compile(function: types.FunctionType) -> types.CodeType | None:
    """Convert and compile: the converted ``def`` sits in a factory whose parameters are the
    runtime (``ag__``) and the original's closure names, so its free variables match them;
    its code object is taken out of the factory's constants."""
    definition = _parse(function)
    if definition is None:
        return None
    code = function.__code__
    if isinstance(definition, ast.Lambda):
        body = [ast.Return(value=convert_lambda_tree(definition, code.co_filename))]
    else:
        definition = convert_function_tree(definition, code.co_filename,
                                           set(code.co_freevars))
        body = [definition, ast.Return(value=ast.Name(id=definition.name, ctx=ast.Load()))]
        if definition.name not in code.co_freevars:  # its own name stays a global (recursion)
            body.insert(0, ast.Global(names=[definition.name]))
    factory = ast.FunctionDef(
        name="autograph_factory",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=name) for name in
                                                 (RUNTIME, *code.co_freevars)],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                           defaults=[]),
        body=body, decorator_list=[], returns=None, type_comment=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.copy_location(factory, definition)
    ast.fix_missing_locations(module)
    compiled = compile(module, code.co_filename, "exec", dont_inherit=True,
                       flags=code.co_flags & _FUTURE_FLAGS)
    factory_code = next(const for const in compiled.co_consts
                        if isinstance(const, types.CodeType))
    return next(const for const in factory_code.co_consts if isinstance(const, types.CodeType)
                and const.co_name == code.co_name)


def _runtime_namespace() -> types.SimpleNamespace:
    """What converted code reaches as ``ag__``."""
    names = ("if_stmt", "if_exp", "while_stmt", "for_stmt", "and_", "or_", "not_")
    namespace = types.SimpleNamespace(**{name: getattr(operators, name) for name in names})
    namespace.Undefined = values.Undefined
    namespace.UNDEFINED_RETURN = values.UNDEFINED_RETURN
    namespace.ld = values.ld
    namespace.converted_call = converted_call
    return namespace


def _build(function: types.FunctionType, code: types.CodeType) -> types.FunctionType:
    """A function running ``code`` with ``function``'s globals, defaults and closure cells."""
    cells = dict(zip(function.__code__.co_freevars, function.__closure__ or ()))
    cells[RUNTIME] = types.CellType(_RUNTIME)
    converted = types.FunctionType(code, function.__globals__, function.__name__,
                                   function.__defaults__,
                                   tuple(cells[name] for name in code.co_freevars))
    converted.__kwdefaults__ = function.__kwdefaults__
    functools.update_wrapper(converted, function)
    return converted


def _convert_callable(function) -> Callable | None:
    """The converted form of ``function`` if it is user code (None: call it as it is)."""
    if isinstance(function, types.FunctionType):
        if function.__code__ in _converted:
            return None
        if _is_unigrad_code(function.__code__):
            return _with_converted_closure(function)
        code = _converted_code(function)
        return None if code is None else _build(function, code)
    from ...nn.cell import Cell
    if isinstance(function, types.MethodType):
        if isinstance(function.__self__, Cell) and function.__func__ in (Cell.__call__,
                                                                         Cell._call_pynative):
            return _cell_implementation(function.__self__)
        converted = _convert_callable(function.__func__)
        return None if converted is None else types.MethodType(converted, function.__self__)
    if isinstance(function, functools.partial):
        converted = _convert_callable(function.func)
        return None if converted is None else functools.partial(converted, *function.args,
                                                                **function.keywords)
    if isinstance(function, Cell):
        return _cell_implementation(function)
    from ..jit import JitFunction
    if isinstance(function, JitFunction):
        return _convert_callable(function.fn) if _local.trace is not None else None
    if isinstance(function, type) or not callable(function):
        return None
    call = inspect.getattr_static(type(function), "__call__", None)
    if isinstance(call, types.FunctionType):
        converted = _convert_callable(call)
        return None if converted is None else types.MethodType(converted, function)
    return None


def _is_unigrad_code(code: types.CodeType) -> bool:
    return os.path.abspath(code.co_filename).startswith(_PACKAGE_DIRECTORY + os.sep)


def _with_converted_closure(function: types.FunctionType) -> Callable | None:
    """A unigrad function closing over user functions (``ug.grad(f)``, ``ug.vmap(f)``) with
    those converted: the same code over new cells (None if it closes over none). Cached
    per function."""
    if not function.__closure__:
        return None
    with _lock:
        cached = _closures.get(function, _MISSING)
    if cached is not _MISSING:
        return cached
    rebuilt = _rebuilt_closure(function, set())
    with _lock:
        _closures[function] = rebuilt
    return rebuilt


def _rebuilt_closure(function: types.FunctionType, visiting: set) -> Callable | None:
    if not function.__closure__ or id(function) in visiting:  # (a recursive closure)
        return None
    visiting.add(id(function))
    cells = []
    for cell in function.__closure__:
        try:
            contents = cell.cell_contents
        except ValueError:  # an empty cell
            contents = None
        converted = None
        if isinstance(contents, types.FunctionType) and _is_unigrad_code(contents.__code__):
            converted = _rebuilt_closure(contents, visiting)
        elif isinstance(contents, (types.FunctionType, types.MethodType)):
            converted = _convert_callable(contents)
        cells.append(cell if converted is None else types.CellType(converted))
    if all(new is old for new, old in zip(cells, function.__closure__)):
        return None
    rebuilt = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                                 function.__defaults__, tuple(cells))
    rebuilt.__kwdefaults__ = function.__kwdefaults__
    rebuilt.__dict__.update(function.__dict__)
    rebuilt.__qualname__ = function.__qualname__
    rebuilt.__doc__ = function.__doc__
    return rebuilt


def _cell_implementation(cell) -> Callable | None:
    """A Cell called plainly runs its ``construct``/``forward``: convert that (a Cell with
    hooks, a ``bprop`` or compiled in GRAPH_MODE is called as it is)."""
    from ...context import GRAPH_MODE
    if cell._forward_pre_hooks or cell._forward_hooks or cell._backward_hooks or \
            cell._backward_pre_hooks or getattr(type(cell), "bprop", None) is not None:
        return None
    if _state.global_state.execution_mode == GRAPH_MODE and _local.trace is None:
        return None
    return _convert_callable(cell._implementation())


def converted_call(function, *args, **kwargs):
    """``function(*args, **kwargs)``, with ``function`` converted first when it is user code
    (what converted code calls at each call site); ``range`` with a traced bound gives a
    range only a converted ``for`` loop can run over.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph import converted_call
        >>> def sign(x):
        ...     if x > 0:
        ...         return 1.0
        ...     return -1.0
        >>> ug.jit(lambda x: converted_call(sign, x) * x)(ug.tensor(-3.0))
        tensor(3.)
    """
    if function is range:
        return operators.range_(*args)
    converted = _convert_callable(function)
    return (function if converted is None else converted)(*args, **kwargs)


def convert(function: Callable) -> Callable:
    """``function`` with its Python control flow converted (TensorFlow's AutoGraph).

    Under ``ug.jit`` an ``if``/``while``/``for i in range(n)`` whose condition (or
    ``n``) is a traced tensor becomes ``cond``/``while_loop``/``fori_loop`` over the
    variables it assigns that are used later (``break``, ``continue`` and early
    ``return`` included; ``and``/``or``/``not`` become logical ops); with values,
    the converted function does exactly what ``function`` does. The user functions,
    lambdas, methods and Cells it calls are converted when called. A method converts
    its function and stays bound; a Cell or other callable object becomes a function
    calling it converted (a Cell's hooks are kept: with hooks it runs as it is); a
    unigrad transform of a user function (``ug.grad(f)``,
    ``ug.vmap(f)``) is rebuilt over the converted function; what cannot be converted
    (unigrad's own functions, builtins, functions without source) is returned as it
    is.

    Example:
        >>> import unigrad as ug
        >>> from unigrad.graph.autograph import convert
        >>> def collatz_steps(n):
        ...     steps = 0
        ...     while n != 1:
        ...         n = n // 2 if n % 2 == 0 else 3 * n + 1
        ...         steps += 1
        ...     return steps
        >>> convert(collatz_steps)(6)
        8
        >>> ug.jit(convert(collatz_steps))(ug.tensor(6))
        tensor(8)
    """
    if not callable(function):
        raise TypeError(f"convert expected a callable 'function', got "
                        f"{type(function).__name__}")
    if not _decided_per_call(function):
        converted = _convert_callable(function)
        return function if converted is None else converted

    def call_converted(*args, **kwargs):
        return converted_call(function, *args, **kwargs)
    return functools.update_wrapper(call_converted, function, updated=())


def _decided_per_call(function) -> bool:
    """Cells (and their calling methods, which GRAPH_MODE compiles): whether their
    ``construct`` is converted is decided at each call, as hooks may come and go."""
    from ...nn.cell import Cell
    if isinstance(function, types.MethodType):
        return isinstance(function.__self__, Cell) and \
            function.__func__ in (Cell.__call__, Cell._call_pynative)
    return isinstance(function, Cell)


_RUNTIME = _runtime_namespace()
