"""The operator classes generated from one table (``ops.Tan()``, ``ops.Split(1, 2)``...).

Values, reprs and signatures are compared with MindSpore in the recorded cases
(``recorded_cases/mindspore_primitives_cases.py``); these tests check the
factory's own behaviour: export, attributes, argument binding and errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import unigrad.compat.mindspore as ms
from unigrad.compat.mindspore import _primitive_classes as table
from unigrad.compat.mindspore import ops


@pytest.mark.parametrize("row", table._ROWS, ids=lambda row: row.name)
def test_every_row_is_an_exported_primitive(row):
    cls = getattr(ops, row.name)
    assert cls is getattr(table, row.name)
    assert row.name in ops.__all__
    assert issubclass(cls, ops.Primitive)
    required = [a.example for a in row.attributes if a.default is table._REQUIRED]
    primitive = cls(*required)
    assert primitive.name == row.name
    assert list(primitive.attrs) == [attribute.name for attribute in row.attributes]


def test_attributes_positional_and_keyword_agree():
    by_position, by_keyword = ops.CumSum(True, False), ops.CumSum(exclusive=True)
    assert repr(by_position) == repr(by_keyword) == \
        "Prim[CumSum]<exclusive=True, reverse=False>"
    assert by_position.exclusive is True and by_position.reverse is False


def test_unknown_or_extra_attribute_raises_type_error():
    with pytest.raises(TypeError, match="keep_dim"):
        ops.ReduceAny(keep_dim=True)
    with pytest.raises(TypeError):
        ops.Tan(1)


def test_wrong_number_of_inputs_names_them():
    with pytest.raises(TypeError, match=r"For 'Atan2', the inputs are \(x, y\), but got 1"):
        ops.Atan2()(ms.Tensor([1.0]))
    with pytest.raises(TypeError, match=r"For 'ReduceAll', the inputs are \(input, axis\)"):
        ops.ReduceAll()(ms.Tensor([True]), 0, 1)


def test_non_tensor_input_names_the_argument():
    with pytest.raises(TypeError, match="For 'Tan', the input 'input' must be a Tensor"):
        ops.Tan()("one")


def test_add_prim_attr_shows_in_repr_and_result_is_ms_tensor():
    primitive = ops.Split(axis=1, output_num=2).add_prim_attr("extra", 3)
    assert repr(primitive) == "Prim[Split]<axis=1, output_num=2, extra=3>"
    parts = primitive(ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 4)))
    assert isinstance(parts, tuple) and all(type(part) is ms.Tensor for part in parts)
    np.testing.assert_array_equal(parts[1].asnumpy(), [[2.0, 3.0]])


def test_error_leaves_the_input_unchanged():
    x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    with pytest.raises(ValueError, match="divisible by output_num = 2"):
        ops.Split(0, 2)(x)
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0, 3.0])


def test_required_attribute_has_no_default_and_must_be_given():
    with pytest.raises(TypeError, match="missing a required argument: 'paddings'"):
        ops.Pad()
    assert repr(ops.Pad(paddings=((0, 1),))) == "Prim[Pad]<paddings=((0, 1),)>"


def test_enumerated_attribute_rejects_unknown_value():
    with pytest.raises(ValueError, match="value \"NCDHW\" of input 'data_format' of 'BiasAdd'"):
        ops.BiasAdd("NCDHW")


def test_every_class_documents_an_example():
    for row in table._ROWS:
        assert f">>> ops.{row.name}(" in getattr(ops, row.name).__doc__
