"""Containers: Cells that hold other Cells (``SequentialCell``/``Sequential``, ``CellList``/
``ModuleList``, ``CellDict``/``ModuleDict``)."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from .cell import Cell


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

    def __add__(self, other: CellList) -> CellList:
        return type(self)(list(self) + list(other))


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
        pairs = list(cells.items() if isinstance(cells, Mapping) else cells)
        for _, cell in pairs:
            _as_cell(cell, type(self).__name__)
        for key, cell in pairs:
            self[key] = cell

    def pop(self, key: str) -> Cell:
        cell = self._cells[key]
        del self._cells[key]
        return cell


class ModuleDict(CellDict):
    """PyTorch's ``nn.ModuleDict``: the same as :class:`CellDict`."""


__all__ = ["SequentialCell", "Sequential", "CellList", "ModuleList", "CellDict", "ModuleDict"]
