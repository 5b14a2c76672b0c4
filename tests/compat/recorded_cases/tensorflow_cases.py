"""TensorFlow cases: ``tf.data`` pipelines and ``tf.keras.optimizers`` training loops.

Each ``case_*`` takes the ``tf`` module (real TensorFlow when recording,
``unigrad.compat.tensorflow`` when testing). Standard library and NumPy only.
"""

from __future__ import annotations

import numpy as np

from . import case

# ------------------------------------------------------------------------ tf.data


def _elements(dataset) -> list:
    """Every element of ``dataset`` as NumPy values (tuples and dicts kept)."""
    return list(dataset.as_numpy_iterator())


@case
def case_data_slices_batch(tf):
    features = np.arange(10, dtype=np.float32).reshape(5, 2)
    labels = np.array([0, 1, 0, 1, 1], np.int64)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(2)
    return _elements(dataset) + [int(dataset.cardinality())]


@case
def case_data_batch_drop_remainder(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(7, dtype=np.int32))
    batched = dataset.batch(3, drop_remainder=True)
    return _elements(batched) + [int(batched.cardinality())]


@case
def case_data_dict_slices(tf):
    dataset = tf.data.Dataset.from_tensor_slices(
        {"x": np.arange(4, dtype=np.float32), "y": np.array([1, 2, 3, 4], np.int32)})
    return [sorted(element.items()) for element in _elements(dataset.batch(3))]


@case
def case_data_python_lists(tf):
    dataset = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [0.5, 1.5, 2.5]))
    return _elements(dataset)


@case
def case_data_map_filter(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.int64))
    dataset = dataset.map(lambda x: x * x).filter(lambda x: x % 2 == 0)
    return _elements(dataset)


@case
def case_data_map_tuple(tf):
    dataset = tf.data.Dataset.from_tensor_slices((np.arange(3, dtype=np.float32),
                                                  np.arange(3, 6, dtype=np.float32)))
    return _elements(dataset.map(lambda x, y: (x + y, x * y)))


@case
def case_data_repeat_take_skip(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(4, dtype=np.int32))
    repeated = dataset.repeat(3)
    return [_elements(repeated.skip(2).take(7)), int(repeated.cardinality()),
            int(repeated.skip(2).take(7).cardinality()), int(dataset.repeat().cardinality())]


@case
def case_data_batch_unbatch(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype=np.int32).reshape(6, 2))
    return _elements(dataset.batch(4).unbatch())


@case
def case_data_zip_enumerate(tf):
    left = tf.data.Dataset.from_tensor_slices(np.arange(3, dtype=np.int32))
    right = tf.data.Dataset.from_tensor_slices(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    zipped = tf.data.Dataset.zip((left, right))
    return [_elements(zipped), int(zipped.cardinality()), _elements(left.enumerate(start=5))]


@case
def case_data_range(tf):
    return [_elements(tf.data.Dataset.range(2, 11, 3)),
            int(tf.data.Dataset.range(5).cardinality())]


@case
def case_data_shuffle_is_permutation(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(20, dtype=np.int64))
    shuffled = dataset.shuffle(8, seed=3)
    first = [int(x) for x in _elements(shuffled)]
    return [sorted(first), len(first), int(shuffled.cardinality())]


@case
def case_data_batch_then_map(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32).reshape(3, 2))
    return _elements(dataset.batch(2).map(lambda x: tf.reduce_sum(x, axis=0)))


@case
def case_data_invalid_batch_size(tf):
    return _elements(tf.data.Dataset.from_tensor_slices(np.arange(3)).batch(0))



def _pairs(count: int):
    for index in range(count):
        yield np.full(2, index, np.float32), index * 10


@case
def case_data_from_generator(tf):
    signature = (tf.TensorSpec(shape=(2,), dtype=tf.float32),
                 tf.TensorSpec(shape=(), dtype=tf.int64))
    dataset = tf.data.Dataset.from_generator(_pairs, output_signature=signature, args=(5,))
    return [_elements(dataset.batch(2)), int(dataset.cardinality())]


@case
def case_data_from_generator_output_types(tf):
    dataset = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3, 4]]),
                                             output_types=tf.int32, output_shapes=(2,))
    return _elements(dataset)


@case
def case_data_from_tensors_prefetch_cache(tf):
    single = tf.data.Dataset.from_tensors(np.arange(3, dtype=np.int32))
    cached = tf.data.Dataset.from_tensor_slices(np.arange(4, dtype=np.int32)).cache()
    prefetched = cached.map(lambda x: x + 1).prefetch(2)
    return [_elements(single), int(single.cardinality()), _elements(cached),
            _elements(prefetched), int(prefetched.cardinality())]


@case
def case_data_shuffle_fixed_order(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.int64))
    shuffled = dataset.shuffle(10, seed=1, reshuffle_each_iteration=False)
    first, second = _elements(shuffled), _elements(shuffled)
    return [bool(np.array_equal(first, second)), sorted(int(x) for x in first)]


@case
def case_data_take_all_and_filter_cardinality(tf):
    dataset = tf.data.Dataset.from_tensor_slices(np.arange(5, dtype=np.int32))
    return [_elements(dataset.take(-1)), int(dataset.take(-1).cardinality()),
            int(dataset.filter(lambda x: x > 2).cardinality()), int(dataset.skip(9).cardinality())]


@case
def case_data_shuffle_invalid_buffer(tf):
    return _elements(tf.data.Dataset.range(3).shuffle(0))

# -------------------------------------------------------------- keras optimizers

# Keras computes in float32 throughout; entries that pass near zero after several steps keep
# float32's absolute error (~1e-6 of the O(1) values), hence atol=2e-6 for the adaptive rules
ADAPTIVE = {"rtol": 1e-5, "atol": 2e-6}

_FEATURES = np.array([[1.0, 2.0], [0.5, -1.0], [-1.5, 0.3], [2.0, 1.0]], np.float32)
_TARGETS = np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32)


def _fit(tf, optimizer, steps: int = 4) -> list:
    """Train ``x @ w + b`` on a fixed least-squares problem with a GradientTape loop;
    the variables after each step, then ``iterations``."""
    w = tf.Variable(np.array([[0.3], [-0.2]], np.float32), name="w")
    b = tf.Variable(np.array([0.1], np.float32), name="b")
    x, y = tf.constant(_FEATURES), tf.constant(_TARGETS)
    history = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        gradients = tape.gradient(loss, [w, b])
        optimizer.apply_gradients(zip(gradients, [w, b]))
        history.append([w.numpy(), b.numpy()])
    return history + [int(optimizer.iterations.numpy())]


@case
def case_keras_sgd(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.1))


@case
def case_keras_sgd_momentum(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.9))


@case
def case_keras_sgd_nesterov_weight_decay(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.8, nesterov=True,
                                            weight_decay=0.1))


@case
def case_keras_sgd_clipnorm(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.1, clipnorm=0.5))


@case
def case_keras_sgd_clipvalue(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.1, clipvalue=0.3))


@case
def case_keras_sgd_global_clipnorm(tf):
    return _fit(tf, tf.keras.optimizers.SGD(learning_rate=0.1, global_clipnorm=0.7))


@case(**ADAPTIVE)
def case_keras_adam(tf):
    return _fit(tf, tf.keras.optimizers.Adam(learning_rate=0.05))


@case(**ADAPTIVE)
def case_keras_adam_large_epsilon_amsgrad(tf):
    return _fit(tf, tf.keras.optimizers.Adam(learning_rate=0.05, beta_1=0.7, beta_2=0.8,
                                             epsilon=0.2, amsgrad=True))


@case(**ADAPTIVE)
def case_keras_adamw(tf):
    return _fit(tf, tf.keras.optimizers.AdamW(learning_rate=0.05, weight_decay=0.2))


@case(**ADAPTIVE)
def case_keras_rmsprop(tf):
    return _fit(tf, tf.keras.optimizers.RMSprop(learning_rate=0.02))


@case(**ADAPTIVE)
def case_keras_rmsprop_centered_momentum(tf):
    return _fit(tf, tf.keras.optimizers.RMSprop(learning_rate=0.02, rho=0.8, momentum=0.5,
                                                epsilon=0.01, centered=True))


@case(**ADAPTIVE)
def case_keras_adagrad(tf):
    return _fit(tf, tf.keras.optimizers.Adagrad(learning_rate=0.1))


@case(**ADAPTIVE)
def case_keras_adadelta(tf):
    return _fit(tf, tf.keras.optimizers.Adadelta(learning_rate=1.0, rho=0.8, epsilon=1e-3))


@case(**ADAPTIVE)
def case_keras_adamax(tf):
    return _fit(tf, tf.keras.optimizers.Adamax(learning_rate=0.05, epsilon=0.1))


@case(**ADAPTIVE)
def case_keras_nadam(tf):
    return _fit(tf, tf.keras.optimizers.Nadam(learning_rate=0.05, epsilon=0.1))


@case(**ADAPTIVE)
def case_keras_adam_exponential_decay(tf):
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2,
                                                              decay_rate=0.5)
    optimizer = tf.keras.optimizers.Adam(learning_rate=schedule)
    return _fit(tf, optimizer) + [optimizer.learning_rate.numpy()]


@case
def case_keras_learning_rate_variable(tf):
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    optimizer.learning_rate = 0.25
    return [optimizer.learning_rate.numpy(), _fit(tf, optimizer, steps=1)]


def _schedule_values(schedule, steps=range(8)) -> list:
    return [schedule(step).numpy() for step in steps]


@case
def case_keras_schedules(tf):
    schedules = tf.keras.optimizers.schedules
    return [
        _schedule_values(schedules.ExponentialDecay(0.1, 3, 0.5)),
        _schedule_values(schedules.ExponentialDecay(0.1, 3, 0.5, staircase=True)),
        _schedule_values(schedules.InverseTimeDecay(0.2, 2, 0.5)),
        _schedule_values(schedules.InverseTimeDecay(0.2, 2, 0.5, staircase=True)),
        _schedule_values(schedules.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1])),
        _schedule_values(schedules.PolynomialDecay(0.1, 5, 0.01, power=2.0)),
        _schedule_values(schedules.PolynomialDecay(0.1, 3, 0.01, cycle=True)),
        _schedule_values(schedules.CosineDecay(0.1, 5, alpha=0.1)),
        _schedule_values(schedules.CosineDecay(0.0, 4, warmup_target=0.2, warmup_steps=3)),
    ]


@case(same_message=True)
def case_keras_sgd_invalid_momentum(tf):
    return tf.keras.optimizers.SGD(momentum=1.5).momentum


@case(same_message=True)
def case_keras_invalid_learning_rate(tf):
    return tf.keras.optimizers.Adam(learning_rate="fast").epsilon


@case(same_message=True)
def case_keras_two_clip_options(tf):
    return tf.keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0).clipnorm


@case(same_message=True)
def case_keras_adamw_without_weight_decay(tf):
    return tf.keras.optimizers.AdamW(weight_decay=None).epsilon


@case(same_message=True)
def case_keras_unknown_argument(tf):
    return tf.keras.optimizers.SGD(learning_rate=0.1, lr_decay=0.5).momentum


@case(same_message=True)
def case_keras_piecewise_length_mismatch(tf):
    return tf.keras.optimizers.schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5]).values


@case(**ADAPTIVE)
def case_keras_ftrl(tf):
    return _fit(tf, tf.keras.optimizers.Ftrl(learning_rate=0.1))


@case(**ADAPTIVE)
def case_keras_ftrl_regularized(tf):
    return _fit(tf, tf.keras.optimizers.Ftrl(learning_rate=0.2, learning_rate_power=-0.7,
                                             l1_regularization_strength=0.05,
                                             l2_regularization_strength=0.1,
                                             l2_shrinkage_regularization_strength=0.02,
                                             beta=0.3))


@case(same_message=True)
def case_keras_ftrl_positive_power(tf):
    return tf.keras.optimizers.Ftrl(learning_rate_power=0.5).beta


@case(**ADAPTIVE)
def case_keras_adamw_exclude_from_weight_decay(tf):
    optimizer = tf.keras.optimizers.AdamW(learning_rate=0.05, weight_decay=0.5)
    optimizer.exclude_from_weight_decay(var_names=["b"])
    return _fit(tf, optimizer)


@case
def case_keras_exclude_after_build(tf):
    # Keras 3.15 checks a `_built` attribute it never sets: no error after building
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, weight_decay=0.1)
    _fit(tf, optimizer, steps=1)
    optimizer.exclude_from_weight_decay(var_names=["b"])
    return 0


@case
def case_keras_none_gradient_skipped(tf):
    w = tf.Variable(np.array([1.0, 2.0], np.float32), name="w")
    b = tf.Variable(np.array([0.5], np.float32), name="b")
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.5)
    optimizer.apply_gradients([(tf.constant([1.0, -1.0]), w), (None, b)])
    optimizer.apply_gradients([(tf.constant([1.0, -1.0]), w), (None, b)])
    return [w.numpy(), b.numpy(), int(optimizer.iterations.numpy())]


@case(same_message=True)
def case_keras_schedule_not_settable(tf):
    schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.1, 1, 0.5)
    optimizer = tf.keras.optimizers.SGD(learning_rate=schedule)
    optimizer.learning_rate = 0.5
    return 0


@case
def case_keras_callable_learning_rate(tf):
    optimizer = tf.keras.optimizers.SGD(learning_rate=lambda: 0.25)
    return _fit(tf, optimizer, steps=2)


@case
def case_keras_gradient_shape_mismatch(tf):
    w = tf.Variable(np.array([1.0, 2.0], np.float32), name="w")
    tf.keras.optimizers.SGD(learning_rate=0.1).apply_gradients([(tf.constant([1.0]), w)])
    return w.numpy()


@case
def case_keras_get_config(tf):
    optimizers = tf.keras.optimizers
    configs = [optimizers.Adam(0.1, amsgrad=True).get_config(),
               optimizers.SGD(0.1, momentum=0.5, clipnorm=1.0).get_config(),
               optimizers.Ftrl(0.1, beta=0.5).get_config(),
               optimizers.RMSprop(centered=True).get_config(),
               optimizers.AdamW(weight_decay=0.01).get_config()]
    # the names carry a process-wide counter (adam, adam_1...): compared without them
    return [sorted((key, value) for key, value in config.items() if key != "name")
            for config in configs]


# ------------------------------------------------------------------------ tf.Module, tf.name_scope
# The TF guide "Introduction to modules" (tensorflow.org/guide/intro_to_modules), with
# tf.random.normal initial values replaced by fixed ones (random streams cannot match).


def _variables_summary(variables) -> list:
    """Name, shape, trainable flag and value of each variable, in order."""
    return [[variable.name, list(variable.shape), bool(variable.trainable), variable.numpy()]
            for variable in variables]


def _guide_modules(tf):
    """The guide's SimpleModule, Dense and SequentialModule classes (fixed initial values)."""

    class SimpleModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.a_variable = tf.Variable(5.0, name="train_me")
            self.non_trainable_variable = tf.Variable(5.0, trainable=False,
                                                      name="do_not_train_me")

        def __call__(self, x):
            return self.a_variable * x + self.non_trainable_variable

    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            start = np.arange(in_features * out_features, dtype=np.float32) / 10.0 - 0.3
            self.w = tf.Variable(start.reshape(in_features, out_features), name="w")
            self.b = tf.Variable(tf.zeros([out_features]), name="b")

        def __call__(self, x):
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)

    class SequentialModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(in_features=3, out_features=3)
            self.dense_2 = Dense(in_features=3, out_features=2)

        def __call__(self, x):
            x = self.dense_1(x)
            return self.dense_2(x)

    return SimpleModule, Dense, SequentialModule


@case
def case_module_guide_simple(tf):
    simple_module_class = _guide_modules(tf)[0]
    simple_module = simple_module_class(name="simple")
    result = simple_module(tf.constant(5.0))
    return [result.numpy(), simple_module.name, simple_module.name_scope.name,
            _variables_summary(simple_module.trainable_variables),
            _variables_summary(simple_module.variables),
            _variables_summary(simple_module.non_trainable_variables),
            [repr(variable) for variable in simple_module.variables]]


@case
def case_module_guide_sequential(tf):
    _, dense_class, sequential_class = _guide_modules(tf)
    my_model = sequential_class(name="the_model")
    result = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    return [result.numpy(), [(type(module).__name__, module.name)
                             for module in my_model.submodules],
            _variables_summary(my_model.variables), len(my_model.trainable_variables),
            [repr(variable) for variable in my_model.variables],
            dense_class(2, 2).name]


@case
def case_module_guide_flexible(tf):
    class FlexibleDenseModule(tf.Module):
        # the guide's deferred-variable module: weights made at the first call
        def __init__(self, out_features, name=None):
            super().__init__(name=name)
            self.is_built = False
            self.out_features = out_features

        def __call__(self, x):
            if not self.is_built:
                count = x.shape[-1] * self.out_features
                start = np.linspace(-1.0, 1.0, count, dtype=np.float32)
                self.w = tf.Variable(start.reshape(x.shape[-1], self.out_features), name="w")
                self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
                self.is_built = True
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)

    class MySequentialModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = FlexibleDenseModule(out_features=3)
            self.dense_2 = FlexibleDenseModule(out_features=2)

        def __call__(self, x):
            x = self.dense_1(x)
            return self.dense_2(x)

    my_model = MySequentialModule(name="the_model")
    before = len(my_model.variables)
    result = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    return [before, result.numpy(), _variables_summary(my_model.variables),
            [module.name for module in my_model.submodules]]


@case
def case_module_name_scope_variables(tf):
    names = []
    with tf.name_scope("dense") as scope:
        names.append(scope)
        names.append(tf.Variable(1.0, name="w").name)
        names.append(tf.Variable(2.0).name)
        with tf.name_scope("inner") as inner:
            names += [inner, tf.Variable(3.0, name="x").name]
        with tf.name_scope("dense"):
            names.append(tf.Variable(3.0, name="again").name)
        with tf.name_scope("absolute/") as absolute:
            names += [absolute, tf.Variable(4.0, name="y").name]
        with tf.name_scope("") as root:
            names += [root, tf.Variable(5.0, name="z").name]
        names.append(tf.Variable(6.0, name="after").name)
    names.append(tf.Variable(7.0, name="outside").name)
    return names


@case
def case_module_mlp_name_scope(tf):
    # tf.Module's docstring: Dense layers made inside the MLP's name scope
    dense_class = _guide_modules(tf)[1]

    class MLP(tf.Module):
        def __init__(self, input_size, sizes, name=None):
            super().__init__(name=name)
            self.layers = []
            with self.name_scope:
                for size in sizes:
                    self.layers.append(dense_class(in_features=input_size, out_features=size))
                    input_size = size

        @tf.Module.with_name_scope
        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    module = MLP(input_size=3, sizes=[3, 2])
    result = module(tf.ones([1, 3]))
    return [result.numpy(), module.name, _variables_summary(module.variables),
            [layer.name_scope.name for layer in module.layers], MLP.__call__.__name__]


@case
def case_module_with_name_scope(tf):
    class MyModule(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            if not hasattr(self, "w"):
                self.w = tf.Variable(np.full((x.shape[1], 3), 0.5, np.float32))
            return tf.matmul(x, self.w)

    with tf.name_scope("outer"):
        module = MyModule()
    result = module(tf.ones([1, 2]))
    with tf.name_scope("elsewhere"):
        second = MyModule(name="second")
        second(tf.ones([1, 2]))
    return [result.numpy(), module.w.name, module.name_scope.name, second.w.name,
            second.name_scope.name]


@case
def case_module_flatten_order(tf):
    import collections

    pair = collections.namedtuple("Pair", "second first")
    shared = tf.Variable(0.0, name="shared")
    root = tf.Module(name="root")
    b, c, d, e, f = (tf.Module(name=name) for name in "bcdef")
    root.zeta = tf.Variable(1.0, name="zeta")
    root.alpha = [tf.Variable(2.0, name="alpha_0"), shared, (shared, tf.Variable(3, name="i"))]
    root.mapping = {"y": tf.Variable(4.0, name="y", trainable=False), "x": shared, "sub": b}
    root.pair = pair(tf.Variable(5.0, name="second"), tf.Variable(6.0, name="first"))
    root.d = d
    root.nothing = None
    root.text = "not a variable"
    b.c = c
    b.again = shared
    c.e = e
    c.v = tf.Variable(7.0, name="c_v", trainable=False)
    d.f = f
    d.b = b
    f.v = tf.Variable(8.0, name="f_v")
    return [[variable.name for variable in root.variables],
            [variable.name for variable in root.trainable_variables],
            [variable.name for variable in root.non_trainable_variables],
            [module.name for module in root.submodules],
            [module.name for module in d.submodules],
            [variable.name for variable in b.variables]]


@case
def case_module_default_names(tf):
    class MyHTTPModule2D(tf.Module):
        pass

    class Dense(tf.Module):
        pass

    class lower_case(tf.Module):  # noqa: N801 - the name is what is tested
        pass

    return [tf.Module().name, MyHTTPModule2D().name, Dense().name, lower_case().name,
            Dense(name="custom_name_1").name]


@case(same_message=True)
def case_module_bad_name(tf):
    return tf.Module(name="my-module").name


@case(same_message=True)
def case_module_name_starting_with_digit(tf):
    return tf.Module(name="1module").name


@case(same_message=True)
def case_module_name_scope_not_string(tf):
    with tf.name_scope(3):
        return 0


@case
def case_module_unsortable_dict_keys(tf):
    module = tf.Module(name="module")
    module.table = {1: tf.Variable(1.0), "one": tf.Variable(2.0)}
    return len(module.variables)


# ------------------------------------------------------------------------ shapes, padding, norms


@case
def case_tensor_shape_methods(tf):
    shape = tf.constant(np.zeros((2, 3), np.float32)).shape
    partial = tf.TensorShape([2, None])
    unknown = tf.TensorShape(None)
    return [repr(shape), str(shape), shape.as_list(), shape.rank, shape.num_elements(),
            shape == (2, 3), shape == [2, 3], repr(shape[1:]), shape[0],
            repr(partial), partial.as_list(), partial.is_fully_defined(),
            partial.num_elements(), partial.is_compatible_with([2, 5]),
            repr(partial.merge_with([None, 7])), repr(unknown), str(unknown), unknown.rank,
            unknown == tf.TensorShape(None), repr(shape.concatenate([4]))]


@case
def case_tensor_shape_unknown_as_list_raises(tf):
    return tf.TensorShape(None).as_list()


@case
def case_pad_modes(tf):
    t = tf.constant([[1, 2, 3], [4, 5, 6]])
    return [tf.pad(t, [[1, 1], [2, 2]]).numpy(),
            tf.pad(t, [[1, 0], [0, 2]], constant_values=9).numpy(),
            tf.pad(t, [[1, 1], [2, 2]], "REFLECT").numpy(),
            tf.pad(t, [[1, 1], [2, 2]], "SYMMETRIC").numpy(),
            tf.pad(tf.constant([1.5, 2.5]), [[2, 1]], "symmetric").numpy()]


@case
def case_pad_reflect_too_wide_raises(tf):
    return tf.pad(tf.constant([[1, 2, 3]]), [[0, 0], [3, 0]], "REFLECT").numpy()


@case
def case_clip_by_norm_values_and_gradient(tf):
    x = tf.Variable([[3.0, 4.0], [0.3, 0.4]])
    with tf.GradientTape() as tape:
        clipped = tf.clip_by_norm(x, 1.0, axes=[1])
        loss = tf.reduce_sum(clipped * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    whole = tf.clip_by_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), 5.0)
    return [clipped.numpy(), whole.numpy(), tape.gradient(loss, x).numpy()]


@case
def case_einsum_forms(tf):
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    return [tf.einsum("ij,jk->ik", a, b).numpy(), tf.einsum("ij->ji", a).numpy(),
            tf.einsum("ij->", a).numpy(), tf.einsum("i,i->", a[0], a[1]).numpy()]


@case
def case_reduce_mean_of_integers(tf):
    return [tf.reduce_mean(tf.constant([1, 2])).numpy(),
            tf.reduce_mean(tf.constant([1, 2, 4])).numpy(),
            tf.reduce_mean(tf.constant([-1, -2])).numpy(),
            tf.reduce_mean(tf.constant([[1, 2], [5, 7]]), axis=1).numpy(),
            tf.reduce_mean(tf.constant([[1, 2], [5, 7]], dtype=tf.int64), axis=0).numpy()]


@case
def case_numpy_functions_on_tensors(tf):
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return [np.mean(t, axis=0), np.sum(t), np.concatenate([t, t]), np.std(tf.Variable([1.0, 3.0]))]


@case
def case_device_scope(tf):
    with tf.device("/CPU:0"):
        on_cpu = (tf.constant(2.0) * 3).numpy()
    with tf.device("/GPU:0"):  # soft placement: runs where it can
        anywhere = (tf.constant([1, 2]) + 1).numpy()
    return [on_cpu, anywhere]


@case
def case_recompute_grad_gradient_and_type_names(tf):
    layer = tf.recompute_grad(lambda x: tf.tanh(x) * x)
    x = tf.Variable([1.0, -0.5])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    return [tape.gradient(y, x).numpy(), type(x).__name__, type(x * 2).__name__,
            type(tf.constant(1.0)).__name__, isinstance(x, tf.Variable),
            isinstance(tf.constant(1.0), tf.Tensor)]


# Cases kept in their own modules (one per area), collected with these.
from .tensorflow_control_flow_cases import *  # noqa: E402, F403
from .tensorflow_guides_cases import *  # noqa: E402, F403
from .tensorflow_keras_layers_cases import *  # noqa: E402, F403
from .tensorflow_keras_training_cases import *  # noqa: E402, F403
from .tensorflow_names_cases import *  # noqa: E402, F403
from .tensorflow_tape_cases import *  # noqa: E402, F403
from .tensorflow_v1_graph_cases import *  # noqa: E402, F403
