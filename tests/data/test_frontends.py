"""``mindspore.dataset`` and ``tf.data`` front-ends (behaviour from their documentation)."""

from __future__ import annotations

import numpy as np
import pytest

import unigrad as ug
import unigrad.compat.mindspore as ms
import unigrad.compat.tensorflow as tf
from unigrad.compat.tensorflow.data import TensorSpec

pytestmark = pytest.mark.usefixtures("restore_random_defaults")


# ----------------------------------------------------------------------------- MindSpore

def values(rows) -> list:
    return [[column.asnumpy().tolist() for column in row] for row in rows]


def test_numpy_slices_columns_types_and_order():
    data = ms.dataset.NumpySlicesDataset({"x": np.arange(8).reshape(4, 2),
                                          "y": np.array([0.5, 1.5, 2.5, 3.5])}, shuffle=False)
    assert data.get_col_names() == ["x", "y"] and data.get_dataset_size() == 4
    rows = list(data.create_tuple_iterator())
    assert all(isinstance(column, ms.Tensor) for row in rows for column in row)
    assert rows[0][0].dtype == ms.int64 and rows[0][1].dtype == ms.float64
    assert values(rows) == [[[0, 1], 0.5], [[2, 3], 1.5], [[4, 5], 2.5], [[6, 7], 3.5]]
    named = ms.dataset.NumpySlicesDataset(([1, 2], [3, 4]), column_names=["a", "b"],
                                          shuffle=False)
    assert [row["b"].asnumpy().item() for row in named.create_dict_iterator()] == [3, 4]
    single = ms.dataset.NumpySlicesDataset([7, 8, 9], shuffle=False)
    assert single.get_col_names() == ["column_0"]
    assert [row[0] for row in single.create_tuple_iterator(output_numpy=True)] == [7, 8, 9]


def test_numpy_slices_shuffles_by_default():
    ug.manual_seed(3)
    orders = [[row[0].asnumpy().item() for row in ms.dataset.NumpySlicesDataset(
        list(range(20)))] for _ in range(2)]
    assert sorted(orders[0]) == list(range(20))
    assert orders[0] != list(range(20)) and orders[0] != orders[1]
    ug.manual_seed(3)
    assert [row[0].asnumpy().item() for row in ms.dataset.NumpySlicesDataset(
        list(range(20)))] == orders[0]


@pytest.mark.parametrize("drop_remainder, expected", [(False, [3, 3, 1]), (True, [3, 3])])
def test_batch_shapes_and_drop_remainder(drop_remainder, expected):
    data = ms.dataset.NumpySlicesDataset((np.arange(14.0).reshape(7, 2), np.arange(7)),
                                         shuffle=False).batch(3, drop_remainder)
    rows = list(data)
    assert [row[0].shape[0] for row in rows] == expected
    assert all(row[0].shape[1:] == (2,) for row in rows)
    assert data.get_dataset_size() == len(expected) and data.get_batch_size() == 3
    np.testing.assert_array_equal(rows[1][1].asnumpy(), [3, 4, 5])


def test_map_repeat_shuffle():
    data = ms.dataset.NumpySlicesDataset({"x": np.arange(6), "y": np.arange(6) * 10},
                                         shuffle=False)
    mapped = data.map(lambda x: x * 2 + 1, input_columns="x")
    assert [row["x"].asnumpy().item() for row in mapped.create_dict_iterator()] == \
        [1, 3, 5, 7, 9, 11]
    swapped = data.map([lambda y: y + 1, lambda y: (y, -y)], input_columns=["y"],
                       output_columns=["y", "minus"])
    assert swapped.get_col_names() == ["x", "y", "minus"]
    assert values(swapped.take(2)) == [[0, 1, -1], [1, 11, -11]]
    repeated = data.repeat(3)
    assert repeated.get_dataset_size() == 18 and len(values(repeated)) == 18
    shuffled = [row[0].asnumpy().item() for row in data.shuffle(4)]
    assert sorted(shuffled) == list(range(6))
    with pytest.raises(ValueError, match="buffer_size"):
        data.shuffle(1)
    with pytest.raises(ValueError, match="column name: z does not exist"):
        data.map(lambda z: z, input_columns="z")


def squares():
    for index in range(5):
        yield np.array(index), np.array([index * index], dtype=np.float32)


class Indexed:
    def __len__(self) -> int:
        return 6

    def __getitem__(self, index: int):
        return np.array([index, -index]), np.array(index % 2)


def test_generator_dataset_sources():
    from_function = ms.dataset.GeneratorDataset(squares, column_names=["i", "square"])
    assert values(from_function.batch(2)) == [[[0, 1], [[0.0], [1.0]]],
                                              [[2, 3], [[4.0], [9.0]]], [[4], [[16.0]]]]
    assert from_function.get_dataset_size() == 5
    assert from_function.batch(2).create_tuple_iterator().__next__()[1].dtype == ms.float32
    ordered = ms.dataset.GeneratorDataset(Indexed(), ["pair", "parity"], shuffle=False,
                                          num_samples=4)
    assert [row[1].asnumpy().item() for row in ordered] == [0, 1, 0, 1]
    assert ordered.get_dataset_size() == 4
    shard = ms.dataset.GeneratorDataset(Indexed(), ["pair", "parity"], shuffle=False,
                                        num_shards=2, shard_id=1)
    assert [row[0].asnumpy()[0] for row in shard] == [1, 3, 5]
    shuffled = [row[0].asnumpy()[0] for row in ms.dataset.GeneratorDataset(
        Indexed(), ["pair", "parity"])]
    assert sorted(shuffled) == list(range(6))


def test_generator_dataset_errors():
    with pytest.raises(ValueError, match="Neither columns_names nor schema"):
        ms.dataset.GeneratorDataset(squares)
    with pytest.raises(ValueError, match="random-accessible"):
        ms.dataset.GeneratorDataset(squares, ["i", "square"], shuffle=True)
    with pytest.raises(RuntimeError, match="size of column_names is: 1"):
        list(ms.dataset.GeneratorDataset(squares, ["i"]))


# ----------------------------------------------------------------------------- TensorFlow

def test_from_tensor_slices_structures_and_dtypes():
    dataset = tf.data.Dataset.from_tensor_slices({"x": [[1.0, 2.0], [3.0, 4.0]],
                                                  "y": np.array([5, 6])})
    elements = list(dataset)
    assert set(elements[0]) == {"x", "y"} and isinstance(elements[0]["x"], tf.Tensor)
    assert elements[0]["x"].dtype == tf.float32 and elements[0]["y"].dtype == tf.int64
    np.testing.assert_array_equal(elements[1]["x"].numpy(), [3.0, 4.0])
    pairs = list(tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4, 5, 6])))
    assert isinstance(pairs[0], tuple) and [int(b) for _, b in pairs] == [4, 5, 6]
    assert pairs[0][0].dtype == tf.int32
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))


@pytest.mark.parametrize("drop_remainder, sizes", [(False, [4, 4, 2]), (True, [4, 4])])
def test_batch_shapes_cardinality_and_unbatch(drop_remainder, sizes):
    dataset = tf.data.Dataset.range(10).map(lambda x: (x, x * 2))
    batched = dataset.batch(4, drop_remainder=drop_remainder)
    shapes = [(tuple(a.shape), tuple(b.shape)) for a, b in batched]
    assert shapes == [((size,), (size,)) for size in sizes]
    assert int(batched.cardinality()) == len(sizes) == len(batched)
    first = next(iter(batched))
    assert first[0].dtype == tf.int64 and isinstance(first[0], tf.Tensor)
    np.testing.assert_array_equal(first[1].numpy(), [0, 2, 4, 6])
    assert [int(x) for x, _ in batched.unbatch()] == list(range(sum(sizes)))


def test_shuffle_is_a_permutation_with_seeded_orders():
    dataset = tf.data.Dataset.range(30)
    shuffled = dataset.shuffle(10, seed=4)
    first, second = list(shuffled.as_numpy_iterator()), list(shuffled.as_numpy_iterator())
    assert sorted(first) == list(range(30)) and first != list(range(30)) and first != second
    assert list(dataset.shuffle(10, seed=4).as_numpy_iterator()) == first
    fixed = dataset.shuffle(30, seed=1, reshuffle_each_iteration=False)
    assert list(fixed.as_numpy_iterator()) == list(fixed.as_numpy_iterator())
    window = list(dataset.shuffle(1).as_numpy_iterator())
    assert window == list(range(30))  # a buffer of one keeps the order


def test_map_filter_repeat_take_skip_enumerate_cache():
    dataset = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0])
    assert list(dataset.map(lambda x: x * 10).as_numpy_iterator()) == [10.0, 20.0, 30.0, 40.0]
    evens = dataset.filter(lambda x: x % 2 == 0)
    assert list(evens.as_numpy_iterator()) == [2.0, 4.0]
    assert int(evens.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    forever = dataset.repeat()
    assert int(forever.cardinality()) == tf.data.INFINITE_CARDINALITY
    assert list(forever.skip(3).take(3).as_numpy_iterator()) == [4.0, 1.0, 2.0]
    assert int(dataset.repeat(2).cardinality()) == 8 and len(list(dataset.repeat(2))) == 8
    indexed = list(dataset.enumerate(start=5).take(2).as_numpy_iterator())
    assert indexed == [(5, 1.0), (6, 2.0)]
    calls = []
    cached = dataset.map(lambda x: calls.append(1) or x).cache().prefetch(tf.data.AUTOTUNE)
    assert list(cached.as_numpy_iterator()) == list(cached.as_numpy_iterator())
    assert len(calls) == 4
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(forever)
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(evens)


def test_zip_from_tensors_and_from_generator():
    zipped = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 15)))
    assert list(zipped.as_numpy_iterator()) == [(0, 10), (1, 11), (2, 12)]
    assert int(zipped.cardinality()) == 3
    single = list(tf.data.Dataset.from_tensors([1, 2, 3]))
    assert len(single) == 1 and tuple(single[0].shape) == (3,)

    def ragged():
        yield [1, 2]
        yield [3]
    generated = tf.data.Dataset.from_generator(
        ragged, output_signature=TensorSpec(shape=(None,), dtype=tf.float32))
    elements = list(generated)
    assert [element.dtype for element in elements] == [tf.float32, tf.float32]
    assert [element.numpy().tolist() for element in elements] == [[1.0, 2.0], [3.0]]
    strict = tf.data.Dataset.from_generator(
        ragged, output_signature=TensorSpec(shape=(2,), dtype=tf.int32))
    with pytest.raises(ValueError, match=r"yielded an element of shape \(1,\)"):
        list(strict)
    typed = tf.data.Dataset.from_generator(lambda: iter([(1, 2.0)]),
                                           output_types=(tf.int64, tf.float32))
    element = next(iter(typed))
    assert (element[0].dtype, element[1].dtype) == (tf.int64, tf.float32)
