"""``tf.Module`` and ``tf.name_scope`` against TensorFlow 2.21's behaviour.

The expected names, orders and messages are what TensorFlow printed for the
same code (the recorded cases ``case_module_*`` in
``tests/compat/recorded_cases/tensorflow_cases.py`` check more of it against
``tests/records/tensorflow.json``).
"""

from __future__ import annotations

import collections
import threading

import numpy as np
import pytest

import unigrad.compat.tensorflow as tf
from unigrad.compat.tensorflow.module import Module, current_scope, name_scope

BAD_NAME_MESSAGE = ("{!r} is not a valid module name. Module names must be valid Python "
                    "identifiers (e.g. a valid class name).")


def _names(items) -> list[str]:
    return [item.name for item in items]


# ----------------------------------------------------------------------------- name_scope

def test_name_scope_nests_and_restores():
    assert current_scope() == ""
    with name_scope("dense") as scope:
        assert scope == "dense/"
        with name_scope("inner") as inner:
            assert (inner, current_scope()) == ("dense/inner/", "dense/inner/")
        with name_scope("dense") as repeated:  # eager TF: no "_1" suffix
            assert repeated == "dense/dense/"
        with name_scope("absolute/") as absolute:
            assert absolute == "absolute/"
        with name_scope("") as root:
            assert (root, current_scope()) == ("", "")
        assert current_scope() == "dense/"
    assert current_scope() == ""


def test_name_scope_restores_after_an_exception():
    with pytest.raises(RuntimeError, match="inside"), name_scope("outer"):
        raise RuntimeError("inside")
    assert current_scope() == ""


def test_one_name_scope_object_can_be_entered_inside_itself():
    scope = name_scope("block")
    with scope as first, scope as second:
        assert (first, second) == ("block/", "block/block/")
    assert current_scope() == ""
    assert scope.name == "block"


def test_name_scope_name_must_be_a_string():
    with pytest.raises(ValueError, match="^name for name_scope must be a string.$"):
        name_scope(3)


def test_name_scope_is_per_thread():
    seen = []
    with name_scope("main"):
        worker = threading.Thread(target=lambda: seen.append(current_scope()))
        worker.start()
        worker.join()
    assert seen == [""]


def test_variables_made_in_a_name_scope_are_prefixed():
    with name_scope("dense"):
        named = tf.Variable(1.0, name="w")
        unnamed = tf.Variable(2.0)
        with name_scope("inner"):
            inner = tf.Variable(3.0, name="x")
        with name_scope(""):
            root = tf.Variable(4.0, name="z")
    outside = tf.Variable(5.0, name="outside")
    assert _names([named, unnamed, inner, root, outside]) == [
        "dense/w:0", "dense/Variable:0", "dense/inner/x:0", "z:0", "outside:0"]
    assert repr(named) == "<tf.Variable 'dense/w:0' shape=() dtype=float32, numpy=1.0>"


# ----------------------------------------------------------------------------- names

class MyHTTPModule2D(Module):
    pass


class lower_case(Module):  # noqa: N801 - the class name is what is tested
    pass


@pytest.mark.parametrize(("module_class", "expected"), [
    (Module, "module"), (MyHTTPModule2D, "my_http_module2_d"), (lower_case, "lower_case")])
def test_default_name_is_the_class_name_in_snake_case(module_class, expected):
    module = module_class()
    assert (module.name, module.name_scope.name) == (expected, expected + "/")


@pytest.mark.parametrize("name", ["", "1module", "my-module", "a/b", " a", "é"])
def test_invalid_names_raise_value_error(name):
    with pytest.raises(ValueError) as caught:
        Module(name=name)
    assert str(caught.value) == BAD_NAME_MESSAGE.format(name)


def test_non_string_name_raises_type_error():
    with pytest.raises(TypeError, match="name must be a str or None, got int"):
        Module(name=3)


def test_name_scope_includes_the_enclosing_scopes_at_construction():
    with name_scope("outer"):
        module = Module(name="inner")
    assert (module.name, module.name_scope.name) == ("inner", "outer/inner/")
    with name_scope("elsewhere"), module.name_scope as scope:
        assert scope == "outer/inner/"
        assert tf.Variable(1.0, name="z").name == "outer/inner/z:0"
    assert current_scope() == ""


# ----------------------------------------------------------------------------- the guide

class SimpleModule(Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

    def __call__(self, x):
        return self.a_variable * x + self.non_trainable_variable


class Dense(Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        start = np.arange(in_features * out_features, dtype=np.float32) / 10.0 - 0.3
        self.w = tf.Variable(start.reshape(in_features, out_features), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class SequentialModule(Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x):
        return self.dense_2(self.dense_1(x))


class MLP(Module):
    def __init__(self, input_size, sizes, name=None):
        super().__init__(name=name)
        self.layers = []
        with self.name_scope:
            for size in sizes:
                self.layers.append(Dense(in_features=input_size, out_features=size))
                input_size = size

    @Module.with_name_scope
    def __call__(self, x):
        """Apply the layers in turn."""
        for layer in self.layers:
            x = layer(x)
        return x


def test_guide_simple_module():
    simple = SimpleModule(name="simple")
    assert simple(tf.constant(5.0)).numpy() == np.float32(30.0)
    assert _names(simple.trainable_variables) == ["train_me:0"]
    assert _names(simple.variables) == ["train_me:0", "do_not_train_me:0"]
    assert _names(simple.non_trainable_variables) == ["do_not_train_me:0"]
    assert isinstance(simple.variables, tuple)
    assert simple.variables[1] is simple.non_trainable_variable


def test_guide_sequential_module():
    model = SequentialModule(name="the_model")
    result = model(tf.constant([[2.0, 2.0, 2.0]]))
    # TensorFlow printed [[0.06, 0.24]] (float32 rounding)
    np.testing.assert_allclose(result.numpy(), [[0.059999991208314896, 0.23999996483325958]],
                               rtol=1e-6)
    assert model.submodules == (model.dense_1, model.dense_2)
    assert [(name, tuple(variable.shape)) for name, variable in
            zip(_names(model.variables), model.variables)] == [
        ("b:0", (3,)), ("w:0", (3, 3)), ("b:0", (2,)), ("w:0", (3, 2))]
    assert model.variables[1] is model.dense_1.w
    assert len(model.trainable_variables) == 4


def test_mlp_names_its_variables_with_its_scope():
    module = MLP(input_size=3, sizes=[3, 2])
    np.testing.assert_allclose(module(tf.ones([1, 3])).numpy(),
                               [[0.029999995604157448, 0.11999998241662979]], rtol=1e-6)
    assert _names(module.variables) == ["mlp/b:0", "mlp/w:0", "mlp/b:0", "mlp/w:0"]
    assert [layer.name_scope.name for layer in module.layers] == ["mlp/dense/", "mlp/dense/"]


def test_with_name_scope_runs_the_method_in_the_module_scope():
    class MyModule(Module):
        @Module.with_name_scope
        def __call__(self, x):
            if not hasattr(self, "w"):
                self.w = tf.Variable(np.full((x.shape[1], 3), 0.5, np.float32))
            return tf.matmul(x, self.w)

        @Module.with_name_scope
        def fail(self):
            raise KeyError("inside")

    with name_scope("outer"):
        module = MyModule()
    np.testing.assert_array_equal(module(tf.ones([1, 2])).numpy(), [[1.0, 1.0, 1.0]])
    assert module.w.name == "outer/my_module/Variable:0"
    with pytest.raises(KeyError, match="inside"):
        module.fail()
    assert current_scope() == ""
    assert (MLP.__call__.__name__, MLP.__call__.__doc__) == ("__call__",
                                                             "Apply the layers in turn.")


# ----------------------------------------------------------------------------- collection order

def _tree():
    """The recorded ``case_module_flatten_order`` structure: (root, modules, shared)."""
    pair = collections.namedtuple("Pair", "second first")
    shared = tf.Variable(0.0, name="shared")
    root = Module(name="root")
    b, c, d, e, f = (Module(name=name) for name in "bcdef")
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
    return root, {module.name: module for module in (b, c, d, e, f)}, shared


def test_variables_in_tensorflow_order_each_once():
    root, modules, shared = _tree()
    assert _names(root.variables) == ["alpha_0:0", "shared:0", "i:0", "y:0", "second:0",
                                      "first:0", "zeta:0", "f_v:0", "c_v:0"]
    assert _names(root.trainable_variables) == ["alpha_0:0", "shared:0", "i:0", "second:0",
                                                "first:0", "zeta:0", "f_v:0"]
    assert _names(root.non_trainable_variables) == ["y:0", "c_v:0"]
    assert _names(modules["b"].variables) == ["shared:0", "c_v:0"]
    assert root.variables[1] is shared


def test_submodules_in_tensorflow_order_each_once():
    root, modules, _ = _tree()
    assert _names(root.submodules) == ["d", "b", "f", "c", "e"]
    assert _names(modules["d"].submodules) == ["b", "f", "c", "e"]
    assert modules["e"].submodules == ()


def test_mappings_by_sorted_key_and_views_in_order():
    module = Module(name="module")
    module.ordered = collections.OrderedDict([("z", tf.Variable(1.0, name="z")),
                                              ("a", tf.Variable(1.0, name="a"))])
    module.items = {"k": tf.Variable(1.0, name="k"), "j": tf.Variable(1.0, name="j")}.items()
    assert _names(module.variables) == ["k:0", "j:0", "a:0", "z:0"]
    assert [path for path, leaf in module._flatten(with_path=True)
            if isinstance(leaf, tf.Variable)] == [("items", 0, 1), ("items", 1, 1),
                                                  ("ordered", "a"), ("ordered", "z")]


def test_cycles_end():
    first, second = Module(name="first"), Module(name="second")
    first.other, second.other = second, first
    second.v = tf.Variable(1.0, name="v")
    assert first.submodules == (second,)
    assert _names(first.variables) == ["v:0"]


def test_flatten_with_path_keeps_repeats():
    root, _, _ = _tree()
    paths = [path for path, leaf in root._flatten(recursive=False, with_path=True)
             if isinstance(leaf, tf.Variable)]
    assert paths == [("alpha", 0), ("alpha", 1), ("alpha", 2, 0), ("alpha", 2, 1),
                     ("mapping", "x"), ("mapping", "y"), ("pair", "second"), ("pair", "first"),
                     ("zeta",)]


def test_flatten_with_path_visits_a_shared_submodule_by_each_path():
    root, _, _ = _tree()
    paths = [path for path, leaf in root._flatten(with_path=True)
             if isinstance(leaf, tf.Variable)]
    assert paths[9:] == [("d", "b", "again"), ("d", "b", "c", "v"), ("d", "f", "v"),
                         ("mapping", "sub", "again"), ("mapping", "sub", "c", "v")]


def test_flatten_with_path_stops_at_cycles():
    first, second = Module(name="first"), Module(name="second")
    first.other, second.other = second, first
    second.v = tf.Variable(1.0, name="v")
    assert [path for path, leaf in first._flatten(with_path=True)
            if isinstance(leaf, tf.Variable)] == [("other", "v")]


def test_flatten_not_recursive_and_traversal_key():
    root, _, _ = _tree()
    variables = root._flatten(recursive=False,
                              predicate=lambda leaf: isinstance(leaf, tf.Variable),
                              attribute_traversal_key=lambda key: key[::-1])
    # keys by reversed spelling: alpha ("ahpla"), zeta ("atez"), mapping ("gnippam")...
    assert _names(variables) == ["alpha_0:0", "shared:0", "i:0", "zeta:0", "y:0", "second:0",
                                 "first:0"]


def test_unsortable_dict_keys_name_the_property():
    module = Module(name="module")
    module.table = {1: tf.Variable(1.0), "one": tf.Variable(2.0)}
    with pytest.raises(ValueError, match="^Error processing property 'table' of ") as caught:
        module.variables  # noqa: B018 - the property raises
    assert isinstance(caught.value.__cause__, TypeError)
