"""``mindspore.amp``: loss scalers, ``all_finite`` and the loss-scale managers.

The scalers are unigrad's (MindSpore's rules); here their state is held in
MindSpore Parameters and their results are MindSpore Tensors.

Example (MindSpore's recipe):
    >>> import unigrad.compat.mindspore as ms
    >>> from unigrad.compat.mindspore.amp import StaticLossScaler, all_finite
    >>> scaler = StaticLossScaler(1024.)
    >>> grads = scaler.unscale((ms.Tensor([2048.0, 4096.0]),))
    >>> grads
    (Tensor(shape=[2], dtype=Float32, value= [2.00000000e+000, 4.00000000e+000]),)
    >>> print(all_finite(grads))
    True
"""

from __future__ import annotations

from ... import amp as _ugamp
from ... import nn as _ugnn
from ...tensor import Tensor as _UgTensor
from . import nn, ops
from ._tensor import Tensor, to_ms
from .dtype import float16, float32
from .nn import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell

__all__ = ["LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "build_train_network", "auto_mixed_precision", "custom_mixed_precision",
           "get_black_list", "cell_to_float"]

LossScaler = _ugamp.LossScaler


class _MsScaler:
    """Mixin: MindSpore Tensors in and out of ``scale``/``unscale``."""

    def _ms_state(self) -> None:
        for name in ("scale_value", "counter"):
            if hasattr(self, name):
                to_ms(getattr(self, name))

    def scale(self, inputs):
        """``inputs * scale_value`` (a Tensor or a nested tuple/list of Tensors)."""
        return to_ms(super().scale(inputs))  # type: ignore[misc]

    def unscale(self, inputs):
        """``inputs / scale_value`` (a Tensor or a nested tuple/list of Tensors)."""
        return to_ms(super().unscale(inputs))  # type: ignore[misc]


class StaticLossScaler(_MsScaler, _ugamp.StaticLossScaler):
    """``amp.StaticLossScaler(scale_value)``: a fixed loss scale (at least 1).

    Example:
        >>> from unigrad.compat.mindspore.amp import StaticLossScaler
        >>> StaticLossScaler(8).scale_value
        Parameter (name=scale_value, shape=(), dtype=Float32, requires_grad=False)
    """

    def __init__(self, scale_value: float):
        _ugamp.StaticLossScaler.__init__(self, scale_value)
        self._ms_state()


class DynamicLossScaler(_MsScaler, _ugamp.DynamicLossScaler):
    """``amp.DynamicLossScaler(scale_value, scale_factor, scale_window)``: the scale grows by
    ``scale_factor`` after ``scale_window`` finite steps and shrinks on overflow.

    Example:
        >>> from unigrad.compat.mindspore.amp import DynamicLossScaler
        >>> scaler = DynamicLossScaler(scale_value=2**10, scale_factor=2, scale_window=1)
        >>> scaler.adjust(False)
        True
        >>> scaler.scale_value.asnumpy()
        array(512., dtype=float32)
    """

    def __init__(self, scale_value: float, scale_factor: int, scale_window: int):
        _ugamp.DynamicLossScaler.__init__(self, scale_value, scale_factor, scale_window)
        self._ms_state()


def all_finite(inputs, status=None) -> Tensor:
    """A 0-d Bool Tensor: True iff every Tensor in ``inputs`` is finite (prints ``True``)."""
    return to_ms(_ugamp.all_finite(inputs, status))


class LossScaleManager:
    """Base of MindSpore's loss-scale managers (``get_loss_scale``, ``get_update_cell``)."""

    def get_loss_scale(self) -> float:
        raise NotImplementedError("LossScaleManager subclasses define get_loss_scale()")

    def get_update_cell(self):
        raise NotImplementedError("LossScaleManager subclasses define get_update_cell()")


class FixedLossScaleManager(LossScaleManager):
    """``amp.FixedLossScaleManager(loss_scale=128.0, drop_overflow_update=True)``.

    Example:
        >>> from unigrad.compat.mindspore.amp import FixedLossScaleManager
        >>> manager = FixedLossScaleManager(1024.0)
        >>> manager.get_loss_scale(), manager.get_update_cell()
        (1024.0, FixedLossScaleUpdateCell())
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True):
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)):
            raise TypeError(f"For 'FixedLossScaleManager', 'loss_scale' must be float or int, "
                            f"but got {type(loss_scale).__name__}")
        if loss_scale < 1:
            raise ValueError(f"For 'FixedLossScaleManager', 'loss_scale' must be >= 1, but got "
                             f"{loss_scale}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"For 'FixedLossScaleManager', 'drop_overflow_update' must be bool, "
                            f"but got {type(drop_overflow_update).__name__}")
        self._loss_scale = float(loss_scale)
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def get_update_cell(self):
        """A ``FixedLossScaleUpdateCell`` when overflowing steps are dropped, else None."""
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """``amp.DynamicLossScaleManager(init_loss_scale=2**24, scale_factor=2,
    scale_window=2000)``; ``get_update_cell()`` is a ``DynamicLossScaleUpdateCell``."""

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2,
                 scale_window: int = 2000):
        self._update_cell = DynamicLossScaleUpdateCell(init_loss_scale, scale_factor,
                                                       scale_window)
        self._loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window

    def get_loss_scale(self) -> float:
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self):
        return self._update_cell


# ------------------------------------------------------------------ mixed precision

_AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")
# cells MindSpore's O1 runs in low precision, and O2 keeps in float32
_WHITE_LIST = ("Dense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
               "Conv3dTranspose", "LSTMCell", "RNNCell", "GRUCell", "ReLU", "PReLU")
_BLACK_LIST = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
_PRECISION = "_mixed_precision"  # a Cell's (compute dtype, output dtype or None)


def _listed(names: tuple) -> tuple:
    return tuple(getattr(nn, name) for name in names if hasattr(nn, name))


def _cast_floats(value, dtype):
    """``value`` (a Tensor or nested tuples/lists/dicts of them) with floating Tensors cast
    to ``dtype`` (differentiably)."""
    if isinstance(value, _UgTensor):
        value = to_ms(value)
        return value.astype(dtype) if value.dtype.is_floating_point and \
            value.dtype != dtype else value
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_floats(item, dtype) for item in value)
    if isinstance(value, dict):
        return {key: _cast_floats(item, dtype) for key, item in value.items()}
    return value


class _InPrecision:
    """A Cell's own construct (or forward) run with the floating inputs and the Cell's own
    floating Parameters cast to its compute dtype, the outputs to its output dtype if set;
    the Parameters are restored afterwards (gradients flow back to them through the
    casts). Holds the Cell and the class's function, so copies and pickles of the Cell
    stay consistent."""

    def __init__(self, cell, function):
        self.cell = cell
        self.function = function

    def __call__(self, *args, **kwargs):
        cell = self.cell
        compute_dtype, output_dtype = cell.__dict__[_PRECISION]
        registry = cell._params
        originals = dict(registry)
        try:
            for key, param in originals.items():
                if param is not None:
                    registry[key] = _cast_floats(param, compute_dtype)
            result = self.function(cell, *_cast_floats(args, compute_dtype),
                                   **_cast_floats(kwargs, compute_dtype))
        finally:
            registry.update(originals)
        return result if output_dtype is None else _cast_floats(result, output_dtype)


def _set_precision(cell, compute_dtype, output_dtype=None) -> None:
    """Make ``cell`` (not its children) compute in ``compute_dtype``."""
    if _PRECISION not in cell.__dict__:
        name = cell._implementation().__name__
        object.__setattr__(cell, name, _InPrecision(cell, getattr(type(cell), name)))
    object.__setattr__(cell, _PRECISION, (compute_dtype, output_dtype))


def cell_to_float(cell, dst_type):
    """``Cell.to_float(dst_type)``: ``cell`` and every Cell inside it compute in
    ``dst_type`` (``ms.float16`` or ``ms.float32``): their floating inputs and Parameters
    are cast on each call (the Parameters themselves stay as they are). Returns ``cell``.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> from unigrad.compat.mindspore.amp import cell_to_float
        >>> dense = cell_to_float(nn.Dense(2, 1, weight_init="ones"), ms.float16)
        >>> dense(ms.Tensor([[0.1, 0.2]])).dtype, dense.weight.dtype
        (mindspore.float16, mindspore.float32)
    """
    if dst_type not in (float16, float32):
        raise ValueError(f"For 'to_float', the argument 'dst_type' must be mstype.float32, "
                         f"mstype.float16 or mstype.bfloat16, but got type: {type(dst_type)} "
                         f"and value: {dst_type}.")
    for _, inner in cell.cells_and_names():
        _set_precision(inner, dst_type)
    return cell


class _OutputTo32(nn.Cell):
    """``backbone``'s floating outputs cast to float32 (MindSpore's amp wrapper)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _cast_floats(self._backbone(*args, **kwargs), float32)


def _white_list_in_low_precision(network, dtype, white_list: tuple | None = None) -> None:
    """The Cells of ``white_list`` classes (O1's by default) compute in ``dtype`` and return
    float32."""
    classes = _listed(_WHITE_LIST) if white_list is None else white_list
    for _, inner in network.cells_and_names():
        if isinstance(inner, classes):
            _set_precision(inner, dtype, float32)


def _black_list_in_float32(network, dtype, black_list: tuple | None = None) -> None:
    """Everything computes in ``dtype`` but the Cells of ``black_list`` classes (O2's by
    default), which compute in float32 and return ``dtype``."""
    classes = _listed(_BLACK_LIST) if black_list is None else black_list
    cell_to_float(network, dtype)
    for _, inner in network.cells_and_names():
        if isinstance(inner, classes):
            cell_to_float(inner, float32)
            _set_precision(inner, float32, dtype)


def get_black_list() -> list:
    """``amp.get_black_list()``: a copy of the Cell classes that ``amp_level='O2'`` keeps in
    float32 (BatchNorm1d/2d/3d, LayerNorm); edit it for :func:`custom_mixed_precision`.

    Example:
        >>> from unigrad.compat.mindspore import amp
        >>> [cls.__name__ for cls in amp.get_black_list()]
        ['BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'LayerNorm']
    """
    return list(_listed(_BLACK_LIST))


def _check_custom_list(classes, list_name: str) -> tuple:
    """``classes`` (a list of Cell classes) as a tuple; MindSpore's TypeErrors otherwise."""
    if not isinstance(classes, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(classes)}")
    for element in classes:
        if not isinstance(element, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {element}")
        if not issubclass(element, _ugnn.Cell):
            if list_name == "white_list" and issubclass(element, ops.Primitive):
                raise NotImplementedError(
                    f"custom_mixed_precision: the Primitive class {element.__name__} in "
                    f"white_list is not supported in unigrad (only Cell classes: their "
                    f"instances compute in low precision)")
            kinds = "one of 'Cell' and 'Primitive'" if list_name == "white_list" else \
                "one of 'Cell'"
            raise TypeError(f"The subclass of element in {list_name} should be {kinds}, but "
                            f"got {element}")
    return tuple(classes)


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=float16):
    """``amp.custom_mixed_precision(network, *, white_list=None, black_list=None,
    dtype=ms.float16)``: give exactly one list of Cell classes. ``white_list``: the Cells
    of those classes compute in ``dtype`` and return float32 (``network`` is returned);
    ``black_list``: everything computes in ``dtype`` but the Cells of those classes, and the
    network is returned wrapped so that its outputs are float32 (as ``'O2'`` with
    :func:`get_black_list`). Primitive classes in ``white_list`` are not supported.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn, amp
        >>> net = nn.SequentialCell(nn.Dense(2, 2, weight_init="ones"), nn.ReLU())
        >>> net = amp.custom_mixed_precision(net, white_list=[nn.ReLU])
        >>> net[1](ms.Tensor([[0.1, -0.2]])).dtype, net[0](ms.Tensor([[0.1, 0.2]])).dtype
        (mindspore.float32, mindspore.float32)
        >>> amp.custom_mixed_precision(net)
        Traceback (most recent call last):
        ...
        ValueError: For custom_mixed_precision, one of white_list and black_list must be \
provided.
    """
    if not isinstance(network, _ugnn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be "
                         "provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be "
                         "provided at the same time, please provide one or the other.")
    if dtype != float16:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but "
                         f"got {dtype}.")
    if white_list is not None:
        _white_list_in_low_precision(network, dtype, _check_custom_list(white_list,
                                                                        "white_list"))
        return network
    _black_list_in_float32(network, dtype, _check_custom_list(black_list, "black_list"))
    return _OutputTo32(network)


def auto_mixed_precision(network, amp_level: str = "O0", dtype=float16):
    """``amp.auto_mixed_precision(network, amp_level='O0', dtype=ms.float16)``: ``'O0'``
    keeps float32; ``'O1'`` runs the white-list Cells (Dense, convolutions, RNN cells,
    ReLU, PReLU) in ``dtype`` with float32 outputs; ``'O2'`` runs everything in ``dtype``
    but the BatchNorm/LayerNorm Cells, ``'O3'`` everything, both returning the network
    wrapped so that its outputs are float32. Parameters stay float32. (``'auto'``,
    MindSpore's per-operator lists, is not available.)

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn, amp
        >>> dense = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> net = amp.auto_mixed_precision(dense, "O3")
        >>> net(ms.Tensor([[0.1, 0.2]]))
        Tensor(shape=[1, 1], dtype=Float32, value=
        [[2.99804688e-001]])
    """
    if not isinstance(network, _ugnn.Cell):
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype != float16:
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but "
                         f"got {dtype}.")
    if amp_level == "O0":
        return network
    if amp_level == "O1":
        _white_list_in_low_precision(network, dtype)
        return network
    if amp_level == "O2":
        _black_list_in_float32(network, dtype)
        return _OutputTo32(network)
    if amp_level == "O3":
        return _OutputTo32(cell_to_float(network, dtype))
    if amp_level == "auto":
        raise NotImplementedError("auto_mixed_precision: amp_level 'auto' (MindSpore's "
                                  "per-operator lists) is not available in unigrad.")
    raise ValueError(f"The amp level {amp_level} is not supported")


class _WithLossCell(nn.Cell):
    """The loss of ``backbone(data)`` against ``label``, both cast to float32 (the loss
    cell MindSpore's ``build_train_network`` adds for float16 networks)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        output = _cast_floats(self._backbone(data), float32)
        return self._loss_fn(output, _cast_floats(label, float32))


def _check_build_arguments(level, boost_level, kwargs: dict) -> None:
    if not isinstance(level, str):
        raise TypeError(f"The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                        f"'auto'],but got type {type(level)}.")
    if level not in _AMP_LEVELS:
        raise ValueError(f"The 'level' should be in : {list(_AMP_LEVELS)}, but got {level}.")
    if boost_level != "O0":
        raise NotImplementedError("build_train_network: boost_level other than 'O0' is not "
                                  "available in unigrad.")
    for name in kwargs:
        if name not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{name}'")
    manager = kwargs.get("loss_scale_manager")
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', 'loss_scale_manager' must be a "
                        f"LossScaleManager, but got {type(manager)}.")


_LEVEL_CONFIGURATIONS = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": float32},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": float32},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": float16},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": float16},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": float32},
}


def _mixed_precision_network(network, level: str, configuration: dict):
    """The network in the precision ``level`` and its configuration ask for."""
    if configuration["cast_model_type"] == float16:
        if configuration["keep_batchnorm_fp32"]:
            _black_list_in_float32(network, float16)
            return network
        return cell_to_float(network, float16)
    if level in ("O2", "O3"):  # cast_model_type=float32 given for a float16 level
        return network
    return auto_mixed_precision(network, level)


def build_train_network(network, optimizer, loss_fn=None, level: str = "O0",
                        boost_level: str = "O0", **kwargs):
    """``amp.build_train_network(network, optimizer, loss_fn=None, level='O0', ...)``: the
    training Cell ``mindspore.train.Model`` steps: ``TrainOneStepCell`` over the loss of the
    network in the precision of ``level`` (keywords ``cast_model_type``,
    ``keep_batchnorm_fp32`` override it), or ``TrainOneStepWithLossScaleCell`` when a
    ``loss_scale_manager`` with an update cell is given (``'O2'`` brings a
    ``DynamicLossScaleManager``). A fixed manager without update cell scales the loss by
    its value.

    Example:
        >>> import unigrad.compat.mindspore as ms
        >>> from unigrad.compat.mindspore import nn
        >>> from unigrad.compat.mindspore.amp import build_train_network
        >>> net = nn.Dense(1, 1, weight_init="ones", bias_init="zeros")
        >>> step = build_train_network(net, nn.SGD(net.trainable_params(), 0.5), nn.MSELoss())
        >>> step(ms.Tensor([[1.0]]), ms.Tensor([[2.0]]))
        Tensor(shape=[], dtype=Float32, value= 1)
        >>> net.weight.asnumpy()
        array([[2.]], dtype=float32)
    """
    _check_build_arguments(level, boost_level, kwargs)
    configuration = dict(_LEVEL_CONFIGURATIONS[level], **kwargs)
    if level == "O2" and "loss_scale_manager" not in kwargs:
        configuration["loss_scale_manager"] = DynamicLossScaleManager()
    network = _mixed_precision_network(network, level, configuration)
    if loss_fn is not None:
        low = configuration["cast_model_type"] == float16 or level in ("O2", "O3")
        network = (_WithLossCell if low else nn.WithLossCell)(network, loss_fn)
    manager = configuration.get("loss_scale_manager")
    if manager is None:
        return nn.TrainOneStepCell(network, optimizer)
    update_cell = manager.get_update_cell()
    if update_cell is None:
        return nn.TrainOneStepCell(network, optimizer, sens=manager.get_loss_scale())
    return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell)
