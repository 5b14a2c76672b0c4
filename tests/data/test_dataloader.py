"""The DataLoader against ``torch.utils.data.DataLoader``, in one and several processes."""

from __future__ import annotations

import multiprocessing
import os
import time

import numpy as np
import pytest

import unigrad as ug
from unigrad import data
from unigrad.compat.torch.utils import data as torch_spelling

from .test_datasets_samplers import assert_same_batch

torch = pytest.importorskip("torch")
from torch.utils import data as torch_data  # noqa: E402

FEATURES = np.arange(30.0).reshape(10, 3)
LABELS = np.arange(10) % 3


def tensor_datasets():
    return (data.TensorDataset(ug.tensor(FEATURES), ug.tensor(LABELS)),
            torch_data.TensorDataset(torch.tensor(FEATURES), torch.tensor(LABELS)))


class Records(data.Dataset):
    """Dict samples mixing numbers, strings and arrays (picklable: module level)."""

    def __len__(self) -> int:
        return 7

    def __getitem__(self, index: int) -> dict:
        return {"id": index, "weight": index / 2, "name": f"r{index}",
                "values": np.full(2, index, dtype=np.float32), "flag": index % 2 == 0}


class TorchRecords(torch_data.Dataset):
    def __len__(self) -> int:
        return 7

    def __getitem__(self, index: int) -> dict:
        return Records()[index]


def batches_of(loader) -> list:
    return list(loader)


@pytest.mark.parametrize("options", [
    {}, {"batch_size": 3}, {"batch_size": 3, "drop_last": True}, {"batch_size": 4},
    {"batch_size": None},
    {"batch_sampler": [[3, 1], [0], [9, 8, 7]]},
    {"sampler": [9, 2, 4], "batch_size": 2},
], ids=str)
def test_sequential_batches_match_torch(options):
    ours, theirs = tensor_datasets()
    our_loader = data.DataLoader(ours, **options)
    their_loader = torch_data.DataLoader(theirs, **options)
    assert len(our_loader) == len(their_loader)
    assert_same_batch(batches_of(our_loader), batches_of(their_loader))


def test_collate_of_mixed_records_matches_torch():
    our_batches = list(data.DataLoader(Records(), batch_size=3))
    their_batches = list(torch_data.DataLoader(TorchRecords(), batch_size=3))
    assert_same_batch(our_batches, their_batches)


def test_custom_collate_fn_and_torch_spelling():
    loader = torch_spelling.DataLoader(range(5), batch_size=2, collate_fn=sum)
    assert list(loader) == [1, 5, 4]
    assert torch_spelling.DataLoader is data.DataLoader


def test_shuffle_with_generator_is_reproducible_and_changes_by_epoch():
    def order(loader):
        return [int(x) for batch in loader for x in batch]
    loader = data.DataLoader(range(12), batch_size=5, shuffle=True,
                             generator=ug.Generator().manual_seed(8))
    first, second = order(loader), order(loader)
    assert sorted(first) == list(range(12)) and first != second
    again = data.DataLoader(range(12), batch_size=5, shuffle=True,
                            generator=ug.Generator().manual_seed(8))
    assert order(again) == first


class Count(data.IterableDataset):
    """0 .. stop-1; in workers, split by worker id when ``split``."""

    def __init__(self, stop: int, split: bool = False) -> None:
        self.stop, self.split = stop, split

    def __iter__(self):
        info = data.get_worker_info()
        if info is None or not self.split:
            return iter(range(self.stop))
        return iter(range(info.id, self.stop, info.num_workers))

    def __len__(self) -> int:
        return self.stop


class TorchCount(torch_data.IterableDataset):
    def __init__(self, stop: int) -> None:
        self.stop = stop

    def __iter__(self):
        return iter(range(self.stop))

    def __len__(self) -> int:
        return self.stop


@pytest.mark.parametrize("options", [{"batch_size": 3}, {"batch_size": 3, "drop_last": True},
                                     {"batch_size": None}], ids=str)
def test_iterable_dataset_batches_match_torch(options):
    ours = data.DataLoader(Count(7), **options)
    theirs = torch_data.DataLoader(TorchCount(7), **options)
    assert len(ours) == len(theirs)
    assert_same_batch(list(ours), list(theirs))


def test_iterable_length_warning():
    stream = Count(5)
    loader = data.DataLoader(stream, batch_size=None)
    assert len(loader) == 5
    stream.stop = 6
    with pytest.warns(UserWarning, match="Length of IterableDataset .* was reported to be 5"):
        assert len(list(iter(loader))) == 6  # list(loader) would ask len() again


@pytest.mark.parametrize("arguments", [
    {"num_workers": -1}, {"timeout": -1}, {"prefetch_factor": 2},
    {"num_workers": 1, "prefetch_factor": -1}, {"persistent_workers": True},
    {"sampler": [0, 1], "shuffle": True},
    {"batch_sampler": [[0]], "batch_size": 2}, {"batch_sampler": [[0]], "shuffle": True},
    {"batch_sampler": [[0]], "sampler": [0]}, {"batch_sampler": [[0]], "drop_last": True},
    {"batch_size": None, "drop_last": True}, {"multiprocessing_context": "fork"},
    {"num_workers": 1, "multiprocessing_context": "no-such-method"},
], ids=str)
def test_argument_errors_match_torch(arguments):
    with pytest.raises(ValueError) as ours:
        data.DataLoader(range(4), **arguments)
    with pytest.raises(ValueError) as theirs:
        torch_data.DataLoader(range(4), **arguments)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("arguments", [{"shuffle": True}, {"sampler": [0]},
                                       {"batch_sampler": [[0]], "batch_size": 1}], ids=str)
def test_iterable_dataset_argument_errors_match_torch(arguments):
    with pytest.raises(ValueError) as ours:
        data.DataLoader(Count(3), **arguments)
    with pytest.raises(ValueError) as theirs:
        torch_data.DataLoader(TorchCount(3), **arguments)
    assert str(ours.value).split("=")[0] == str(theirs.value).split("=")[0]


def test_attributes_are_frozen_after_init():
    loader = data.DataLoader(range(4), batch_size=2)
    with pytest.raises(ValueError, match="batch_size attribute should not be set after "
                                         "DataLoader is initialized"):
        loader.batch_size = 3
    assert isinstance(loader.sampler, data.SequentialSampler)
    assert isinstance(loader.batch_sampler, data.BatchSampler)
    assert loader.collate_fn is data.default_collate
    assert data.DataLoader(range(4), batch_size=None).collate_fn is data.default_convert


# ----------------------------------------------------------------------------- workers

def children_alive() -> list:
    return [child for child in multiprocessing.active_children() if child.is_alive()]


def test_workers_give_the_same_batches_as_the_main_process():
    ours, _ = tensor_datasets()
    single = list(data.DataLoader(ours, batch_size=3, shuffle=True,
                                  generator=ug.Generator().manual_seed(2)))
    workers = list(data.DataLoader(ours, batch_size=3, shuffle=True, num_workers=2,
                                   generator=ug.Generator().manual_seed(2)))
    assert len(single) == len(workers) == 4
    for mine, other in zip(workers, single):
        assert isinstance(mine[0], ug.Tensor)
        np.testing.assert_array_equal(mine[0].numpy(), other[0].numpy())
        np.testing.assert_array_equal(mine[1].numpy(), other[1].numpy())
    assert not children_alive()


def test_workers_collate_records_like_torch():
    ours = list(data.DataLoader(Records(), batch_size=2, num_workers=2))
    theirs = list(torch_data.DataLoader(TorchRecords(), batch_size=2))
    assert_same_batch(ours, theirs)


def describe_worker(index: int) -> tuple:
    info = data.get_worker_info()
    return info.id, info.num_workers, info.seed, os.getpid()


class WorkerReport(data.Dataset):
    def __len__(self) -> int:
        return 6

    def __getitem__(self, index: int) -> tuple:
        return describe_worker(index)


def record_worker_id(worker_id: int) -> None:
    os.environ["UNIGRAD_TEST_WORKER"] = str(worker_id)


class InitReport(data.Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> int:
        return int(os.environ["UNIGRAD_TEST_WORKER"])


def test_worker_info_and_worker_init_fn():
    reports = list(data.DataLoader(WorkerReport(), batch_size=None, num_workers=2,
                                   generator=ug.Generator().manual_seed(1)))
    ids = [report[0] for report in reports]
    assert ids == [0, 1, 0, 1, 0, 1]  # round-robin, returned in order
    assert {report[1] for report in reports} == {2}
    seeds = {report[0]: report[2] for report in reports}
    assert seeds[1] == seeds[0] + 1
    assert len({report[3] for report in reports}) == 2 and os.getpid() not in {
        report[3] for report in reports}
    initialized = list(data.DataLoader(InitReport(), batch_size=None, num_workers=2,
                                       worker_init_fn=record_worker_id))
    assert initialized == [0, 1, 0, 1]


def test_iterable_dataset_in_workers():
    duplicated = [int(x) for batch in data.DataLoader(Count(4), batch_size=2, num_workers=2)
                  for x in batch]
    assert sorted(duplicated) == [0, 0, 1, 1, 2, 2, 3, 3]  # each worker streams everything
    split = [batch.tolist() for batch in data.DataLoader(Count(7, split=True), batch_size=2,
                                                         num_workers=2)]
    assert split == [[0, 2], [1, 3], [4, 6], [5]]


class Failing(data.Dataset):
    def __len__(self) -> int:
        return 6

    def __getitem__(self, index: int) -> int:
        if index == 3:
            raise ValueError(f"cannot read item {index}")
        return index


def test_worker_error_is_raised_with_the_worker_traceback():
    loader = data.DataLoader(Failing(), batch_size=2, num_workers=2)
    with pytest.raises(ValueError) as error:
        list(loader)
    message = str(error.value)
    assert message.startswith("Caught ValueError in DataLoader worker process 1.")
    assert "Traceback (most recent call last)" in message
    assert "cannot read item 3" in message and "__getitem__" in message
    deadline = time.monotonic() + 5
    del error
    import gc
    gc.collect()
    while children_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not children_alive()


def test_persistent_workers_are_reused_then_shut_down():
    loader = data.DataLoader(range(5), batch_size=2, num_workers=2, persistent_workers=True)
    first = [batch.tolist() for batch in loader]
    workers = list(loader._iterator._workers)
    second = [batch.tolist() for batch in loader]
    assert first == second == [[0, 1], [2, 3], [4]]
    assert loader._iterator._workers == workers and all(w.is_alive() for w in workers)
    loader._iterator._shutdown_workers()
    assert not any(worker.is_alive() for worker in workers)
    assert all(worker.exitcode == 0 for worker in workers)


def test_unfinished_iteration_shuts_workers_down():
    iterator = iter(data.DataLoader(range(20), batch_size=2, num_workers=2))
    assert next(iterator).tolist() == [0, 1]
    workers = list(iterator._workers)
    del iterator
    assert not any(worker.is_alive() for worker in workers)
    assert all(worker.exitcode == 0 for worker in workers)


class Slow(data.Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> int:
        time.sleep(3.0 if index == 2 else 0.0)
        return index


def test_timeout_raises_runtime_error():
    # a second per item: ample for 0 and 1 on a loaded machine, far short of item 2's three
    loader = data.DataLoader(Slow(), batch_size=None, num_workers=1, timeout=1.0)
    iterator = iter(loader)
    assert [next(iterator), next(iterator)] == [0, 1]
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 1.0 seconds"):
        next(iterator)
    iterator._shutdown_workers()
    with pytest.raises(AssertionError, match="requires timeout == 0"):
        iter(data.DataLoader(range(2), timeout=1))


class Dying(data.Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> int:
        if index == 1:
            os._exit(3)
        return index


def test_dead_worker_is_reported():
    loader = data.DataLoader(Dying(), batch_size=None, num_workers=1)
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited "
                                           r"unexpectedly"):
        list(loader)
    assert not children_alive()


def failing_init(worker_id: int) -> None:
    raise OSError(f"worker {worker_id} cannot start")


def test_worker_init_fn_error_is_raised():
    with pytest.raises(OSError, match="Caught OSError in DataLoader worker process 0"):
        list(data.DataLoader(range(4), num_workers=2, worker_init_fn=failing_init))


def test_out_of_order_delivery_keeps_every_batch():
    loader = data.DataLoader(Slow(), batch_size=None, num_workers=2, in_order=False)
    delivered = list(iter(loader))
    assert sorted(delivered) == [0, 1, 2, 3]
    assert delivered[-1] == 2  # worker 1 hands in 3 while 2 is still loading


def test_pin_memory_is_accepted_with_torch_warning():
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no "
                                         "accelerator is found"):
        assert [batch.tolist() for batch in data.DataLoader(range(3), batch_size=2,
                                                            pin_memory=True)] == [[0, 1], [2]]


@pytest.mark.slow
def test_spawn_context_workers():
    loader = data.DataLoader(Records(), batch_size=3, num_workers=2,
                             multiprocessing_context="spawn")
    assert_same_batch(list(loader), list(torch_data.DataLoader(TorchRecords(), batch_size=3)))


def test_persistent_workers_restart_iterable_streams():
    loader = data.DataLoader(Count(7, split=True), batch_size=2, num_workers=2,
                             persistent_workers=True)
    expected = [[0, 2], [1, 3], [4, 6], [5]]
    assert [batch.tolist() for batch in loader] == expected
    abandoned = iter(loader)
    assert next(abandoned).tolist() == [0, 2]
    assert [batch.tolist() for batch in loader] == expected  # stale results are dropped
    loader._iterator._shutdown_workers()


def test_tensor_dataset_batches_equal_the_per_row_path():
    data = ug.data.TensorDataset(ug.arange(40.0).reshape(20, 2), ug.arange(20))
    fast = data_loader_batches(data, collate_fn=None)
    slow = data_loader_batches(data, collate_fn=lambda rows: ug.data.default_collate(rows))
    assert len(fast) == len(slow) == 3
    for (x_fast, y_fast), (x_slow, y_slow) in zip(fast, slow):
        assert x_fast.tolist() == x_slow.tolist() and y_fast.tolist() == y_slow.tolist()
        assert x_fast.dtype == x_slow.dtype and y_fast.dtype == y_slow.dtype


def data_loader_batches(dataset, collate_fn):
    options = {} if collate_fn is None else {"collate_fn": collate_fn}
    loader = ug.data.DataLoader(dataset, batch_size=8, shuffle=True,
                                generator=ug.Generator().manual_seed(3), **options)
    return list(loader)
