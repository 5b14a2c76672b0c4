"""Containers: Cells that hold other Cells (``SequentialCell``/``Sequential``, ``CellList``/
``ModuleList``, ``CellDict``/``ModuleDict``)."""

from __future__ import annotations

import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from ..tensor import Tensor
from .cell import Cell
from .parameter import Parameter


def _pairs(values, owner: str, sort_plain_mappings: bool = False) -> list:
    """``values`` (a mapping or an iterable of key/value pairs) as a list of pairs, checked
    as PyTorch's containers' ``update`` checks them."""
    if isinstance(values, (Mapping, CellDict, ParameterDict)):
        items = list(values.items())
        plain = not isinstance(values, (OrderedDict, Cell))
        return sorted(items) if sort_plain_mappings and plain else items
    if not isinstance(values, Iterable) or isinstance(values, Tensor):
        raise TypeError(f"{owner}.update should be called with an iterable of key/value pairs, "
                        f"but got {type(values).__name__}")
    pairs = []
    for index, pair in enumerate(values):
        if not isinstance(pair, Iterable):
            raise TypeError(f"{owner} update sequence element #{index} should be Iterable; is "
                            f"{type(pair).__name__}")
        pair = tuple(pair)
        if len(pair) != 2:
            raise ValueError(f"{owner} update sequence element #{index} has length "
                             f"{len(pair)}; 2 is required")
        pairs.append(pair)
    return pairs


def _as_cell(value, owner: str) -> Cell:
    if not isinstance(value, Cell):
        raise TypeError(f"{owner}: every element must be a Cell, got {type(value).__name__}")
    return value


class _IndexedCells(Cell):
    """Children named ``'0'``, ``'1'``, ... with list-style access (shared by the containers)."""

    def _index(self, index, owner: str) -> int:
        index = operator.index(index)
        count = len(self._cells)
        if not -count <= index < count:
            raise IndexError(f"index {index} is out of range for {owner} of length {count}")
        return index % count

    def _renumber(self, cells: list) -> None:
        old_names = {id(cell): name for name, cell in self._cells.items()}
        self._cells.clear()
        for position, cell in enumerate(cells):
            if id(cell) in old_names:
                self._rename_child(cell, old_names[id(cell)], str(position))
            else:
                self._name_parameters_of(cell, str(position))
            self._cells[str(position)] = cell

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def __getitem__(self, index):
        return list(self._cells.values())[self._index(index, type(self).__name__)]

    def __setitem__(self, index, cell) -> None:
        position = self._index(index, type(self).__name__)
        setattr(self, str(position), _as_cell(cell, type(self).__name__))

    def __delitem__(self, index) -> None:
        cells = list(self._cells.values())
        if isinstance(index, slice):
            del cells[index]
        else:
            del cells[self._index(index, type(self).__name__)]
        self._renumber(cells)

    def append(self, cell: Cell):
        """Add ``cell`` at the end; returns self."""
        setattr(self, str(len(self._cells)), _as_cell(cell, type(self).__name__))
        return self

    def extend(self, cells: Iterable[Cell]):
        """Append every Cell of ``cells``; returns self."""
        cells = [_as_cell(cell, type(self).__name__) for cell in cells]
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Insert ``cell`` before position ``index``."""
        cells = list(self._cells.values())
        position = operator.index(index)
        cells.insert(position, _as_cell(cell, type(self).__name__))
        self._renumber(cells)

    def pop(self, key: int | slice):
        """Remove and return the Cell (or the container of Cells) at ``key``."""
        value = self[key]
        del self[key]
        return value

    def __iadd__(self, cells: Iterable[Cell]):
        return self.extend(cells)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class SequentialCell(_IndexedCells):
    """Cells applied one after another (MindSpore); ``Sequential`` is PyTorch's spelling.

    Takes Cells as arguments, one list of Cells, or an ``OrderedDict`` of named Cells.

    Example:
        >>> import unigrad as ug
        >>> _ = ug.manual_seed(0)
        >>> net = ug.nn.SequentialCell([ug.nn.Dense(4, 8), ug.nn.ReLU(), ug.nn.Dense(8, 2)])
        >>> net(ug.ones(3, 4)).shape
        (3, 2)
        >>> len(net), type(net[1]).__name__
        (3, 'ReLU')
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], Mapping):
            for name, cell in args[0].items():
                setattr(self, name, _as_cell(cell, type(self).__name__))
            return
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        for cell in args:
            self.append(cell)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._cells.items())[index]))
        if isinstance(index, str):
            return self._cells[index]
        return super().__getitem__(index)

    def construct(self, input):
        for cell in self._cells.values():
            input = cell(input)
        return input

    def insert(self, index: int, cell: Cell):
        """Insert ``cell`` before position ``index`` (``-len <= index <= len``); returns self.

        Example:
            >>> import unigrad as ug
            >>> net = ug.nn.Sequential(ug.nn.ReLU()).insert(0, ug.nn.Tanh())
            >>> [type(cell).__name__ for cell in net]
            ['Tanh', 'ReLU']
        """
        count = len(self)
        if not -count <= operator.index(index) <= count:
            raise IndexError(f"Index out of range: {index}")
        super().insert(index, cell)
        return self

    def __add__(self, other: SequentialCell) -> SequentialCell:
        """A new container holding this one's Cells and then ``other``'s (the same Cells)."""
        self._check_sequential(other)
        return type(self)(list(self) + list(other))

    def __iadd__(self, other: SequentialCell) -> SequentialCell:
        self._check_sequential(other)
        return self.extend(list(other))

    def _check_sequential(self, other) -> None:
        if not isinstance(other, SequentialCell):
            raise ValueError(f"add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")

    def __mul__(self, count: int) -> SequentialCell:
        """A new container repeating this one's Cells ``count`` times (the same Cells).

        Example:
            >>> import unigrad as ug
            >>> net = ug.nn.Sequential(ug.nn.Linear(2, 2)) * 3
            >>> len(net), net[0] is net[2], len(list(net.parameters()))
            (3, True, 2)
        """
        return type(self)(list(self) * self._checked_factor(count))

    __rmul__ = __mul__

    def __imul__(self, count: int) -> SequentialCell:
        return self.extend(list(self) * (self._checked_factor(count) - 1))

    def _checked_factor(self, count) -> int:
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and "
                            f"{type(count)}")
        if count <= 0:
            raise ValueError(f"Non-positive multiplication factor {count} for {type(self)}")
        return count


class Sequential(SequentialCell):
    """PyTorch's ``nn.Sequential``: the same as :class:`SequentialCell`.

    Example:
        >>> import unigrad as ug
        >>> net = ug.nn.Sequential(ug.nn.Linear(2, 3), ug.nn.Tanh())
        >>> [name for name, _ in net.named_parameters()]
        ['0.weight', '0.bias']
    """


class CellList(_IndexedCells):
    """A list of Cells whose Parameters are registered (MindSpore); ``ModuleList`` in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> layers = ug.nn.CellList([ug.nn.Dense(2, 2) for _ in range(3)])
        >>> layers.append(ug.nn.Dense(2, 1))
        CellList(...)
        >>> len(layers), len(list(layers.parameters()))
        (4, 8)
    """

    def __init__(self, cells: Iterable[Cell] | None = None):
        super().__init__()
        if cells is not None:
            self.extend(cells)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._cells.values())[index])
        return super().__getitem__(index)

    def __add__(self, other: Iterable[Cell]) -> CellList:
        return type(self)(list(self) + list(other))

    def __repr__(self) -> str:
        """PyTorch's format, runs of identical children shown once as ``(i-j): n x ...``.

        Example:
            >>> import unigrad as ug
            >>> ug.nn.ModuleList([ug.nn.ReLU(), ug.nn.ReLU(), ug.nn.Tanh()])
            ModuleList(
              (0-1): 2 x ReLU()
              (2): Tanh()
            )
        """
        texts = [repr(cell) for cell in self]
        if not texts:
            return f"{type(self).__name__}()"
        lines = []
        start = 0
        for index in range(1, len(texts) + 1):
            if index < len(texts) and texts[index] == texts[start]:
                continue
            label = f"({start}): " if index - start == 1 \
                else f"({start}-{index - 1}): {index - start} x "
            lines.append((label + texts[start]).replace("\n", "\n  "))
            start = index
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"


class ModuleList(CellList):
    """PyTorch's ``nn.ModuleList``: the same as :class:`CellList`."""


class CellDict(Cell):
    """A dict of named Cells whose Parameters are registered; ``ModuleDict`` in PyTorch.

    Example:
        >>> import unigrad as ug
        >>> heads = ug.nn.CellDict({"a": ug.nn.Dense(2, 1), "b": ug.nn.Dense(2, 3)})
        >>> sorted(heads.keys()), heads["b"](ug.ones(2)).shape
        (['a', 'b'], (3,))
    """

    def __init__(self, cells: Mapping[str, Cell] | None = None):
        super().__init__()
        if cells is not None:
            self.update(cells)

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __setitem__(self, key: str, cell: Cell) -> None:
        self.add_module(key, _as_cell(cell, type(self).__name__))

    def __delitem__(self, key: str) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __contains__(self, key: str) -> bool:
        return key in self._cells

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells) -> None:
        """Add every ``(name, cell)`` of a mapping or an iterable of pairs."""
        pairs = _pairs(cells, type(self).__name__)
        for _, cell in pairs:
            _as_cell(cell, type(self).__name__)
        for key, cell in pairs:
            self[key] = cell

    def pop(self, key: str) -> Cell:
        cell = self._cells[key]
        del self._cells[key]
        return cell

    def clear(self) -> None:
        """Remove every Cell."""
        self._cells.clear()


class ModuleDict(CellDict):
    """PyTorch's ``nn.ModuleDict``: the same as :class:`CellDict`."""


def _as_parameter(value):
    """A plain Tensor becomes a Parameter (sharing its storage); anything else is kept."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _describe(value, type_name: bool = False) -> str:
    """One element of a parameter container as PyTorch's ``extra_repr`` shows it: its dtype
    (``torch.float32``), or its tensor type name (``torch.FloatTensor``) when ``type_name``."""
    if not isinstance(value, Tensor):
        return f"Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    device = f" ({value.device})" if value.device.type != "cpu" else ""
    dtype = value.type() if type_name else f"torch.{value.dtype.name}"
    return f"{kind} containing: [{dtype} of size {size}{device}]"


class _ParameterContainer(Cell):
    """Shared by ParameterList and ParameterDict: elements stored as attributes."""

    def _store(self, attribute: str, value) -> None:
        value = _as_parameter(value)
        if isinstance(value, Parameter):
            self.register_parameter(attribute, value)
        else:
            self._forget(attribute)
            object.__setattr__(self, attribute, value)

    def _fetch(self, attribute: str):
        return getattr(self, attribute)

    def _remove(self, attribute: str) -> None:
        self._forget(attribute)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{type(self).__name__} should not be called.")

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]


class ParameterList(_ParameterContainer):
    """A list of Parameters registered with the Module holding it (PyTorch's
    ``nn.ParameterList``); plain Tensors put in it become Parameters.

    Example:
        >>> import unigrad as ug
        >>> params = ug.nn.ParameterList([ug.nn.Parameter(ug.zeros(2, 3))])
        >>> params.append(ug.ones(4))
        ParameterList(
            (0): Parameter containing: [torch.float32 of size 2x3]
            (1): Parameter containing: [torch.float32 of size 4]
        )
        >>> list(params.state_dict())
        ['0', '1']
    """

    def __init__(self, values: Iterable | None = None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self += values

    def _absolute(self, index) -> str:
        index = operator.index(index)
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} is out of range")
        return str(index % len(self))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)([self[i] for i in range(*index.indices(len(self)))])
        return self._fetch(self._absolute(index))

    def __setitem__(self, index, value) -> None:
        self._store(self._absolute(index), value)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator:
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable) -> ParameterList:
        return self.extend(values)

    def append(self, value) -> ParameterList:
        """Add ``value`` at the end; returns self."""
        index = len(self)
        object.__setattr__(self, "_size", index + 1)
        self[index] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        """Append every element of ``values``; returns self."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError(f"ParameterList.extend should be called with an iterable, but got "
                            f"{type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({index}): {_describe(value)}" for index, value in enumerate(self))


class ParameterDict(_ParameterContainer):
    """A dict of Parameters registered with the Module holding it (PyTorch's
    ``nn.ParameterDict``); keys are strings, plain Tensors become Parameters, and the
    insertion order is kept (a plain ``dict`` given to ``update`` is added in sorted order).

    Example:
        >>> import unigrad as ug
        >>> params = ug.nn.ParameterDict({"scale": ug.ones(2), "bias": ug.zeros(2)})
        >>> list(params.keys()), list(params.state_dict())
        (['bias', 'scale'], ['bias', 'scale'])
        >>> params["bias"]
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _attribute(key) -> str:
        if not isinstance(key, str):
            raise TypeError(f"Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on github "
                            f"if you need non-string keys.")
        return key

    def __getitem__(self, key: str):
        attribute = self._attribute(key)
        if key not in self._keys:
            raise KeyError(key)
        return self._fetch(attribute)

    def __setitem__(self, key: str, value) -> None:
        attribute = self._attribute(key)
        self._store(attribute, value)
        self._keys[key] = None

    def __delitem__(self, key: str) -> None:
        if key not in self._keys:
            raise KeyError(key)
        del self._keys[key]
        self._remove(self._attribute(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(list(self._keys))

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def values(self):
        return [self[key] for key in self._keys]

    def items(self):
        return [(key, self[key]) for key in self._keys]

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def setdefault(self, key: str, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str):
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple:
        key = next(reversed(self))
        return key, self.pop(key)

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same Parameters."""
        return type(self)(OrderedDict(self.items()))

    def fromkeys(self, keys: Iterable[str], default=None) -> ParameterDict:
        return type(self)((key, default) for key in keys)

    def update(self, parameters) -> None:
        """Add every ``(key, value)`` of a mapping or an iterable of pairs."""
        for key, value in _pairs(parameters, "ParameterDict", sort_plain_mappings=True):
            self[key] = value

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({key}): {_describe(value, type_name=True)}"
                         for key, value in self.items())


class Container(Cell):
    """PyTorch's long-deprecated ``nn.Container(**modules)``: a Module holding the keyword
    modules as children. Creating one warns (``FutureWarning``), as in PyTorch.

    Example:
        >>> import warnings
        >>> import unigrad as ug
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     box = ug.nn.Container(fc=ug.nn.Linear(2, 1))
        >>> caught[0].category.__name__, list(dict(box.named_children()))
        ('FutureWarning', ['fc'])
    """

    def __init__(self, **kwargs) -> None:
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now "
                      "implemented in `nn.Module`. Subclass that instead.", FutureWarning,
                      stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


__all__ = ["SequentialCell", "Sequential", "CellList", "ModuleList", "CellDict", "ModuleDict",
           "ParameterList", "ParameterDict", "Container"]
