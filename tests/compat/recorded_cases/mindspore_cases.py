"""MindSpore cases: ``mindspore.dataset`` pipelines and ``mindspore.nn`` optimizers.

Each ``case_*`` takes the ``mindspore`` module (``ms.nn``, ``ms.dataset``
imported; real MindSpore when recording, ``unigrad.compat.mindspore`` when
testing). Standard library and NumPy only.
"""

from __future__ import annotations

import numpy as np

from . import case

# ------------------------------------------------------------------------ dataset


def _rows(dataset) -> list:
    return [list(row) for row in dataset.create_tuple_iterator(output_numpy=True)]


class _Squares:
    """A random-access source: row ``i`` is ``(i, i * i)``."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __getitem__(self, index: int):
        return np.array(index, np.int32), np.array([index * index, -index], np.float32)

    def __len__(self) -> int:
        return self.size


def _counter():
    for index in range(5):
        yield (np.array([index, index + 1], np.int64),)


@case
def case_dataset_generator_random_access(ms):
    dataset = ms.dataset.GeneratorDataset(_Squares(5), column_names=["i", "sq"], shuffle=False)
    return [_rows(dataset), dataset.get_dataset_size(), dataset.get_col_names()]


@case
def case_dataset_generator_function_batch(ms):
    dataset = ms.dataset.GeneratorDataset(_counter, column_names=["data"], shuffle=False)
    batched = dataset.batch(2)
    return [_rows(batched), batched.get_dataset_size(), batched.get_batch_size()]


@case
def case_dataset_batch_drop_remainder_repeat(ms):
    dataset = ms.dataset.NumpySlicesDataset(np.arange(7, dtype=np.float32), column_names=["x"],
                                            shuffle=False)
    batched = dataset.batch(3, drop_remainder=True).repeat(2)
    return [_rows(batched), batched.get_dataset_size()]


@case
def case_dataset_numpy_slices_dict(ms):
    data = {"a": np.arange(6, dtype=np.int32).reshape(3, 2),
            "b": np.array([0.5, 1.5, 2.5], np.float32)}
    dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False)
    rows = [sorted(row.items())
            for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1)]
    return [rows, sorted(dataset.get_col_names())]


@case
def case_dataset_numpy_slices_tuple(ms):
    data = (np.arange(4, dtype=np.float64), np.array([3, 2, 1, 0], np.int64))
    dataset = ms.dataset.NumpySlicesDataset(data, column_names=["x", "y"], shuffle=False)
    return [_rows(dataset.batch(3)), dataset.get_col_names()]


@case
def case_dataset_map(ms):
    dataset = ms.dataset.NumpySlicesDataset(
        {"x": np.arange(4, dtype=np.float32), "y": np.arange(4, dtype=np.int32)}, shuffle=False)
    mapped = dataset.map(operations=lambda x: x * np.float32(2) + np.float32(1),
                         input_columns=["x"])
    return [_rows(mapped.batch(2)), mapped.get_col_names()]


@case
def case_dataset_tuple_iterator_tensors(ms):
    dataset = ms.dataset.NumpySlicesDataset(np.arange(4, dtype=np.float32).reshape(2, 2),
                                            column_names=["x"], shuffle=False)
    return [[item.asnumpy() for item in row] for row in dataset.create_tuple_iterator()]


@case
def case_dataset_take_skip(ms):
    dataset = ms.dataset.NumpySlicesDataset(np.arange(6, dtype=np.int32), column_names=["x"],
                                            shuffle=False)
    # a node may have one consumer in MindSpore: build the chain once per use
    return [_rows(dataset.skip(2).take(3)),
            ms.dataset.NumpySlicesDataset(np.arange(6, dtype=np.int32), column_names=["x"],
                                          shuffle=False).skip(2).take(3).get_dataset_size()]


@case
def case_dataset_invalid_batch_size(ms):
    dataset = ms.dataset.NumpySlicesDataset(np.arange(3, dtype=np.int32), column_names=["x"])
    return _rows(dataset.batch(0))


# ---------------------------------------------------------------------- optimizers

# fixed gradients of the parameters 'w' (2x2) and 'b' (3,) for each step
_GRADIENTS = [
    (np.array([[0.5, -1.0], [2.0, 0.25]], np.float32), np.array([1.0, -0.5, 0.0], np.float32)),
    (np.array([[-0.3, 0.8], [1.5, -2.0]], np.float32), np.array([0.2, 0.4, -1.0], np.float32)),
    (np.array([[0.1, 0.1], [-0.7, 0.9]], np.float32), np.array([-1.5, 0.3, 0.6], np.float32)),
    (np.array([[1.2, -0.4], [0.0, 0.6]], np.float32), np.array([0.7, -0.2, 0.1], np.float32)),
]


def _parameters(ms, names) -> list:
    initial = (np.array([[1.0, -2.0], [0.5, 3.0]], np.float32),
               np.array([0.1, -0.2, 0.3], np.float32))
    return [ms.Parameter(ms.Tensor(value), name=name) for value, name in zip(initial, names)]


def _train(ms, make_optimizer, steps: int = 4, names=("w", "b")) -> list:
    """The two parameters (a 2x2 and a 3-vector, named ``names``) after each of ``steps``
    calls ``optimizer(gradients)``."""
    params = _parameters(ms, names)
    optimizer = make_optimizer(params)
    history = []
    for step in range(steps):
        optimizer(tuple(ms.Tensor(gradient) for gradient in _GRADIENTS[step]))
        history.append([param.asnumpy() for param in params])
    return history


@case
def case_optimizer_sgd(ms):
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=0.1))


@case
def case_optimizer_sgd_momentum_dampening_weight_decay(ms):
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=0.05, momentum=0.9,
                                               dampening=0.2, weight_decay=0.01))


@case
def case_optimizer_sgd_nesterov(ms):
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=0.05, momentum=0.8,
                                               nesterov=True))


@case
def case_optimizer_sgd_loss_scale(ms):
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=0.1, loss_scale=4.0))


@case
def case_optimizer_momentum(ms):
    return _train(ms, lambda params: ms.nn.Momentum(params, learning_rate=0.1, momentum=0.9))


@case
def case_optimizer_momentum_nesterov_weight_decay(ms):
    return _train(ms, lambda params: ms.nn.Momentum(params, 0.1, 0.9, weight_decay=0.05,
                                                    use_nesterov=True))


@case
def case_optimizer_momentum_dynamic_learning_rate(ms):
    return _train(ms, lambda params: ms.nn.Momentum(params, [0.1, 0.05, 0.02, 0.01], 0.5))


# MindSpore keeps beta1**t and beta2**t as float32 products: rtol 1e-5
@case(rtol=1e-5)
def case_optimizer_adam(ms):
    return _train(ms, lambda params: ms.nn.Adam(params, learning_rate=0.1))


@case(rtol=2e-6)
def case_optimizer_adam_small_eps(ms):
    # eps comparable to sqrt(v): shows where eps enters the update
    return _train(ms, lambda params: ms.nn.Adam(params, learning_rate=0.1, beta1=0.8,
                                                beta2=0.9, eps=0.5))


@case(rtol=2e-6)
def case_optimizer_adam_weight_decay(ms):
    return _train(ms, lambda params: ms.nn.Adam(params, learning_rate=0.05, weight_decay=0.1))


@case(rtol=2e-6)
def case_optimizer_adam_amsgrad(ms):
    return _train(ms, lambda params: ms.nn.Adam(params, learning_rate=0.05, use_amsgrad=True))


@case
def case_optimizer_momentum_negative_momentum(ms):
    return _train(ms, lambda params: ms.nn.Momentum(params, 0.1, -0.5))


@case
def case_optimizer_adam_invalid_beta1(ms):
    return _train(ms, lambda params: ms.nn.Adam(params, beta1=1.5))


@case
def case_optimizer_sgd_negative_learning_rate(ms):
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=-0.1))


@case
def case_optimizer_rmsprop(ms):
    return _train(ms, lambda params: ms.nn.RMSProp(params, learning_rate=0.05))


@case
def case_optimizer_rmsprop_momentum_centered(ms):
    return _train(ms, lambda params: ms.nn.RMSProp(params, learning_rate=0.05, decay=0.8,
                                                   momentum=0.5, epsilon=0.01, centered=True))


@case
def case_optimizer_rmsprop_weight_decay_loss_scale(ms):
    return _train(ms, lambda params: ms.nn.RMSProp(params, learning_rate=0.05, momentum=0.3,
                                                   weight_decay=0.1, loss_scale=2.0))


@case
def case_optimizer_adagrad(ms):
    return _train(ms, lambda params: ms.nn.Adagrad(params, learning_rate=0.1))


@case
def case_optimizer_adagrad_weight_decay(ms):
    return _train(ms, lambda params: ms.nn.Adagrad(params, accum=0.5, learning_rate=0.1,
                                                   weight_decay=0.2))


@case
def case_optimizer_adagrad_no_update_slots(ms):
    return _train(ms, lambda params: ms.nn.Adagrad(params, accum=0.5, learning_rate=0.1,
                                                   update_slots=False))


@case(rtol=2e-6)
def case_optimizer_adam_weight_decay_optimizer(ms):
    return _train(ms, lambda params: ms.nn.AdamWeightDecay(params, learning_rate=0.05,
                                                           weight_decay=0.1))


@case(rtol=2e-6)
def case_optimizer_adam_weight_decay_large_eps(ms):
    return _train(ms, lambda params: ms.nn.AdamWeightDecay(params, learning_rate=0.05,
                                                           beta1=0.5, beta2=0.7, eps=0.3))


@case
def case_optimizer_adadelta(ms):
    return _train(ms, lambda params: ms.nn.Adadelta(params, learning_rate=0.5, rho=0.8,
                                                    epsilon=1e-3, weight_decay=0.05))


@case(rtol=2e-6)
def case_optimizer_adamax(ms):
    return _train(ms, lambda params: ms.nn.AdaMax(params, learning_rate=0.05, eps=0.1,
                                                  weight_decay=0.01))


@case
def case_optimizer_asgd(ms):
    return _train(ms, lambda params: ms.nn.ASGD(params, learning_rate=0.1, lambd=0.01,
                                                alpha=0.5, t0=2.0))


@case
def case_optimizer_rprop(ms):
    return _train(ms, lambda params: ms.nn.Rprop(params, learning_rate=0.1, etas=(0.4, 1.5),
                                                 step_sizes=(0.01, 0.3), weight_decay=0.1))


@case
def case_optimizer_rmsprop_negative_decay(ms):
    return _train(ms, lambda params: ms.nn.RMSProp(params, decay=-0.1))


@case
def case_optimizer_adagrad_negative_accum(ms):
    return _train(ms, lambda params: ms.nn.Adagrad(params, accum=-1.0))



@case
def case_optimizer_sgd_weight_decay_skips_gamma(ms):
    # MindSpore's default decay filter: no weight decay for Parameters named beta/gamma
    return _train(ms, lambda params: ms.nn.SGD(params, learning_rate=0.1, weight_decay=0.5),
                  names=("gamma", "b"))


@case
def case_optimizer_momentum_groups(ms):
    return _train(ms, lambda params: ms.nn.Momentum(
        [{"params": [params[0]], "lr": 0.01, "weight_decay": 0.2}, {"params": [params[1]]}],
        learning_rate=0.1, momentum=0.9))


@case(rtol=1e-5)
def case_optimizer_adam_groups_gamma(ms):
    # grouped: each group's weight decay applies to all its Parameters, gamma included
    return _train(ms, lambda params: ms.nn.Adam(
        [{"params": [params[0]], "weight_decay": 0.3}, {"params": [params[1]], "lr": 0.2}],
        learning_rate=0.05), names=("gamma", "b"))


@case
def case_optimizer_rmsprop_flat_skips_beta(ms):
    return _train(ms, lambda params: ms.nn.RMSProp(params, learning_rate=0.05,
                                                   weight_decay=0.5), names=("w", "beta"))


@case(rtol=1e-5)
def case_optimizer_adam_amsgrad_large_eps(ms):
    return _train(ms, lambda params: ms.nn.Adam(params, learning_rate=0.1, beta1=0.7,
                                                beta2=0.8, eps=0.3, use_amsgrad=True))


# Cases kept in their own modules (one per area), collected with these.
from .mindspore_control_flow_cases import *  # noqa: E402, F403
from .mindspore_functional_cases import *  # noqa: E402, F403
from .mindspore_layers_cases import *  # noqa: E402, F403
from .mindspore_nn_more_cases import *  # noqa: E402, F403
from .mindspore_primitives_cases import *  # noqa: E402, F403
from .mindspore_printing_cases import *  # noqa: E402, F403
from .mindspore_training_cases import *  # noqa: E402, F403
from .mindspore_transforms_cases import *  # noqa: E402, F403
from .mindspore_tutorial_cases import *  # noqa: E402, F403
