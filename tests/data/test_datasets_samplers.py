"""Datasets, samplers and collation against ``torch.utils.data``."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import unigrad as ug
from unigrad import data

torch = pytest.importorskip("torch")
from torch.utils import data as torch_data  # noqa: E402

Point = collections.namedtuple("Point", ["x", "y"])


def as_numpy(value):
    """A collated batch (of either library) as nested Python/NumPy values."""
    if isinstance(value, (ug.Tensor, torch.Tensor)):
        return np.asarray(value.numpy() if isinstance(value, ug.Tensor) else value.numpy())
    if isinstance(value, dict):
        return {key: as_numpy(item) for key, item in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(as_numpy(item) for item in value))
    if isinstance(value, (list, tuple)):
        return type(value)(as_numpy(item) for item in value)
    return value


def assert_same_batch(ours, theirs) -> None:
    """Same structure, same values, same dtypes."""
    assert type(ours) is type(theirs) or (isinstance(ours, ug.Tensor)
                                          and isinstance(theirs, torch.Tensor))
    if isinstance(ours, ug.Tensor):
        expected = theirs.numpy()
        assert ours.numpy().dtype == expected.dtype
        np.testing.assert_array_equal(ours.numpy(), expected)
    elif isinstance(ours, dict):
        assert list(ours) == list(theirs)
        for key in ours:
            assert_same_batch(ours[key], theirs[key])
    elif isinstance(ours, (list, tuple)):
        assert len(ours) == len(theirs)
        for mine, other in zip(ours, theirs):
            assert_same_batch(mine, other)
    else:
        assert ours == theirs


SAMPLES = [
    [1, 2, 3],
    [0.5, 1.5],
    [True, False],
    ["a", "b"],
    [np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 4.0], dtype=np.float32)],
    [np.int32(3), np.int32(4)],
    [np.float64(1.5), np.float64(2.5)],
    [(1, 2.0), (3, 4.0)],
    [[1, "x"], [2, "y"]],
    [{"a": 1, "b": [1.0, 2.0]}, {"a": 2, "b": [3.0, 4.0]}],
    [Point(1, 2.5), Point(3, 4.5)],
    [collections.OrderedDict(k=np.arange(3)), collections.OrderedDict(k=np.arange(3, 6))],
]


@pytest.mark.parametrize("batch", SAMPLES, ids=range(len(SAMPLES)))
def test_default_collate_matches_torch(batch):
    assert_same_batch(data.default_collate(batch), torch_data.default_collate(batch))


def test_default_collate_stacks_tensors_and_keeps_dtype():
    ours = data.default_collate([ug.tensor([1, 2], dtype=ug.int32), ug.tensor([3, 4],
                                                                             dtype=ug.int32)])
    theirs = torch_data.default_collate([torch.tensor([1, 2], dtype=torch.int32),
                                         torch.tensor([3, 4], dtype=torch.int32)])
    assert_same_batch(ours, theirs)


@pytest.mark.parametrize("batch", [
    np.arange(3), {"x": np.float32(2.0), "s": "text"}, (np.arange(2), 5), Point(np.arange(2), 1),
    [np.array(["a"]), 1.0],
], ids=range(5))
def test_default_convert_matches_torch(batch):
    ours, theirs = data.default_convert(batch), torch_data.default_convert(batch)
    if isinstance(theirs, list) and isinstance(theirs[0], np.ndarray):
        np.testing.assert_array_equal(ours[0], theirs[0])
        assert ours[1] == theirs[1]
        return
    assert_same_batch(ours, theirs)


@pytest.mark.parametrize("batch, error", [
    ([[1, 2], [3]], RuntimeError), ([object(), object()], TypeError),
    ([np.array(["a"]), np.array(["b"])], TypeError),
])
def test_default_collate_errors_match_torch(batch, error):
    with pytest.raises(error) as ours:
        data.default_collate(batch)
    with pytest.raises(error) as theirs:
        torch_data.default_collate(batch)
    assert str(ours.value).split("<")[0] == str(theirs.value).split("<")[0]


def test_tensor_dataset_indexing_and_errors():
    features, labels = np.arange(12.0).reshape(4, 3), np.array([0, 1, 1, 0])
    ours = data.TensorDataset(ug.tensor(features), ug.tensor(labels))
    theirs = torch_data.TensorDataset(torch.tensor(features), torch.tensor(labels))
    assert len(ours) == len(theirs) == 4
    for index in range(4):
        assert_same_batch(ours[index], theirs[index])
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        data.TensorDataset(ug.zeros(2), ug.zeros(3))


def test_concat_subset_stack_datasets_match_torch():
    first, second = list(range(3)), list(range(10, 14))
    ours = data.ConcatDataset([first, second])
    theirs = torch_data.ConcatDataset([first, second])
    assert len(ours) == len(theirs) == 7
    assert ours.cumulative_sizes == theirs.cumulative_sizes
    assert [ours[i] for i in range(-7, 7)] == [theirs[i] for i in range(-7, 7)]
    with pytest.raises(ValueError, match="should not exceed dataset length"):
        ours[-8]
    with pytest.raises(AssertionError, match="should not be an empty iterable"):
        data.ConcatDataset([])
    subset = data.Subset(ours, [6, 0, 3])
    assert [subset[i] for i in range(3)] == [13, 0, 10]
    assert subset.__getitems__([2, 1]) == torch_data.Subset(theirs, [6, 0, 3]).__getitems__([2, 1])
    stacked = data.StackDataset(a=first, b=first)
    assert stacked[2] == torch_data.StackDataset(a=first, b=first)[2]
    assert data.StackDataset(first, first)[1] == (1, 1)
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        data.StackDataset(first, second)
    with pytest.raises(ValueError, match="At least one dataset"):
        data.StackDataset()


class Stream(data.IterableDataset):
    def __init__(self, stop: int) -> None:
        self.stop = stop

    def __iter__(self):
        return iter(range(self.stop))

    def __len__(self) -> int:
        return self.stop


def test_chain_dataset_and_add():
    chained = Stream(2) + Stream(3)
    assert isinstance(chained, data.ChainDataset)
    assert list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(data.ChainDataset([[1, 2]]))
    with pytest.raises(AssertionError, match="does not support IterableDataset"):
        data.ConcatDataset([Stream(2)])


@pytest.mark.parametrize("lengths, expected", [
    ([3, 7], [3, 7]), ([0.3, 0.3, 0.4], [3, 3, 4]), ([0.25, 0.25, 0.5], [3, 2, 5]),
    ([1 / 3, 1 / 3, 1 / 3], [4, 3, 3]),
])
def test_random_split_lengths_match_torch(lengths, expected):
    ours = data.random_split(range(10), lengths, generator=ug.Generator().manual_seed(1))
    theirs = torch_data.random_split(range(10), lengths,
                                     generator=torch.Generator().manual_seed(1))
    assert [len(part) for part in ours] == [len(part) for part in theirs] == expected
    assert sorted(index for part in ours for index in part) == list(range(10))
    again = data.random_split(range(10), lengths, generator=ug.Generator().manual_seed(1))
    assert [list(part) for part in ours] == [list(part) for part in again]


def test_random_split_errors():
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        data.random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        data.random_split(range(10), [0.5, 1.5, -1.0])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        data.random_split(range(2), [1.0, 0.0])


# ----------------------------------------------------------------------------- samplers

@pytest.mark.parametrize("size, batch_size, drop_last", [(10, 3, False), (10, 3, True),
                                                         (9, 3, True), (2, 5, False)])
def test_batch_sampler_matches_torch(size, batch_size, drop_last):
    ours = data.BatchSampler(data.SequentialSampler(range(size)), batch_size, drop_last)
    theirs = torch_data.BatchSampler(torch_data.SequentialSampler(range(size)), batch_size,
                                     drop_last)
    assert list(ours) == list(theirs)
    assert len(ours) == len(theirs)


@pytest.mark.parametrize("arguments, message", [
    ((0, False), "batch_size should be a positive integer value, but got batch_size=0"),
    ((True, False), "batch_size should be a positive integer value, but got batch_size=True"),
    ((2, 1), "drop_last should be a boolean value, but got drop_last=1"),
])
def test_batch_sampler_errors_match_torch(arguments, message):
    with pytest.raises(ValueError) as ours:
        data.BatchSampler(range(3), *arguments)
    with pytest.raises(ValueError) as theirs:
        torch_data.BatchSampler(range(3), *arguments)
    assert str(ours.value) == str(theirs.value) == message


def test_random_sampler_is_a_seeded_permutation():
    first = list(data.RandomSampler(range(20), generator=ug.Generator().manual_seed(4)))
    second = list(data.RandomSampler(range(20), generator=ug.Generator().manual_seed(4)))
    assert sorted(first) == list(range(20)) and first == second
    generator = ug.Generator().manual_seed(4)
    sampler = data.RandomSampler(range(20), generator=generator)
    assert list(sampler) != list(sampler)  # the generator advances between passes
    ug.manual_seed(7)
    unseeded = list(data.RandomSampler(range(20)))
    ug.manual_seed(7)
    assert list(data.RandomSampler(range(20))) == unseeded


def test_random_sampler_num_samples_and_replacement():
    sampler = data.RandomSampler(range(4), num_samples=10, generator=ug.Generator())
    drawn = list(sampler)
    assert len(drawn) == len(sampler) == 10
    assert sorted(drawn[:4]) == sorted(drawn[4:8]) == [0, 1, 2, 3]
    with_replacement = list(data.RandomSampler(range(3), replacement=True, num_samples=70))
    assert len(with_replacement) == 70 and set(with_replacement) == {0, 1, 2}


@pytest.mark.parametrize("arguments, error", [
    ({"replacement": 1}, TypeError), ({"num_samples": 0}, ValueError),
    ({"num_samples": 2.0}, ValueError),
])
def test_random_sampler_errors_match_torch(arguments, error):
    with pytest.raises(error) as ours:
        data.RandomSampler(range(3), **arguments)
    with pytest.raises(error) as theirs:
        torch_data.RandomSampler(range(3), **arguments)
    assert str(ours.value) == str(theirs.value)


def test_subset_random_sampler():
    sampler = data.SubsetRandomSampler([5, 7, 9, 11], generator=ug.Generator().manual_seed(0))
    assert len(sampler) == 4 and sorted(sampler) == [5, 7, 9, 11]


def test_weighted_random_sampler_frequencies():
    weights = [1.0, 2.0, 0.0, 5.0]
    sampler = data.WeightedRandomSampler(weights, 8000, generator=ug.Generator().manual_seed(3))
    counts = np.bincount(list(sampler), minlength=4) / 8000
    expected = np.array(weights) / sum(weights)
    # binomial standard error at n=8000 is below 0.006; 0.03 is five of them
    np.testing.assert_allclose(counts, expected, atol=0.03)
    assert counts[2] == 0
    assert sampler.weights.dtype == ug.float64
    without = list(data.WeightedRandomSampler(weights, 3, replacement=False))
    assert sorted(without) == [0, 1, 3]


@pytest.mark.parametrize("arguments", [
    ([1.0, 2.0], 0), ([1.0, 2.0], 2, 1), ([[1.0, 2.0]], 2),
])
def test_weighted_random_sampler_errors_match_torch(arguments):
    with pytest.raises(ValueError) as ours:
        data.WeightedRandomSampler(*arguments)
    with pytest.raises(ValueError) as theirs:
        torch_data.WeightedRandomSampler(*arguments)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("size, replicas, drop_last", [(10, 3, False), (10, 3, True),
                                                       (2, 5, False), (9, 3, True)])
def test_distributed_sampler_partition_matches_torch(size, replicas, drop_last):
    for rank in range(replicas):
        ours = data.DistributedSampler(range(size), replicas, rank, shuffle=False,
                                       drop_last=drop_last)
        theirs = torch_data.DistributedSampler(range(size), replicas, rank, shuffle=False,
                                               drop_last=drop_last)
        assert list(ours) == list(theirs)
        assert len(ours) == len(theirs) == len(list(theirs))


def test_distributed_sampler_shuffle_is_shared_and_changes_by_epoch():
    samplers = [data.DistributedSampler(range(11), 2, rank, seed=5) for rank in range(2)]
    first = [list(sampler) for sampler in samplers]
    assert sorted(first[0] + first[1])[:-1] == list(range(11))  # one padded repeat
    assert first == [list(sampler) for sampler in samplers]
    for sampler in samplers:
        sampler.set_epoch(1)
    assert [list(sampler) for sampler in samplers] != first
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval "
                                         r"\[0, 1\]"):
        data.DistributedSampler(range(4), num_replicas=2, rank=2)


def test_worker_info_outside_workers():
    assert data.get_worker_info() is None
    info = data.WorkerInfo(id=0, num_workers=1, seed=3, dataset=None)
    with pytest.raises(AttributeError):
        info.id = 2
