"""The PyTorch front-end prints and behaves as PyTorch does: ``torch.cuda`` and
``torch.accelerator`` on the machine at hand (the CPU-only case everywhere CI runs: no
CuPy GPU, and torch's CPU wheel), ``load_state_dict``'s result."""

from __future__ import annotations

import warnings

import pytest

import unigrad.compat.torch as torch_ug

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def test_availability_matches_pytorch_on_this_machine():
    assert torch_ug.cuda.is_available() is torch.cuda.is_available()
    assert torch_ug.cuda.device_count() == torch.cuda.device_count()
    assert torch_ug.accelerator.is_available() is torch.accelerator.is_available()
    assert torch_ug.accelerator.device_count() == torch.accelerator.device_count()


@pytest.mark.skipif(torch_ug.cuda.is_available(), reason="a GPU is present")
def test_device_functions_raise_pytorchs_error_without_cuda():
    for function in (torch_ug.cuda.current_device, torch_ug.cuda.synchronize,
                     torch_ug.cuda.get_device_name, torch_ug.cuda.init,
                     torch_ug.accelerator.current_device_index):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            function()
    assert torch_ug.accelerator.current_accelerator() is None


def test_seeding_is_accepted_and_leaves_the_cpu_stream_alone():
    torch_ug.manual_seed(3)
    expected = torch_ug.rand(4).tolist()
    torch_ug.manual_seed(3)
    torch_ug.cuda.manual_seed(123)
    torch_ug.cuda.manual_seed_all(7)
    assert torch_ug.rand(4).tolist() == expected


def test_the_tutorial_device_idiom_runs():
    device = "cuda" if torch_ug.cuda.is_available() else "cpu"
    model = torch_ug.nn.Linear(3, 2).to(device)
    out = model(torch_ug.ones(4, 3, device=device))
    assert tuple(out.shape) == (4, 2) and out.device.type == device


@pytest.mark.skipif(torch_ug.cuda.is_available(), reason="a GPU is present")
def test_cuda_autocast_without_cuda_warns_and_does_nothing():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch_ug.cuda.amp.autocast():
            product = torch_ug.ones(2, 2) @ torch_ug.ones(2, 2)
    assert product.dtype == torch_ug.float32
    assert any("CUDA is not available" in str(w.message) for w in caught)


def test_load_state_dict_result_prints_like_pytorch():
    ours, theirs = torch_ug.nn.Linear(2, 2), torch.nn.Linear(2, 2)
    assert repr(ours.load_state_dict(ours.state_dict())) == \
        repr(theirs.load_state_dict(theirs.state_dict())) == "<All keys matched successfully>"
    partial_ours = ours.load_state_dict({"weight": ours.weight.detach()}, strict=False)
    partial_theirs = theirs.load_state_dict({"weight": theirs.weight.detach()}, strict=False)
    assert repr(partial_ours) == repr(partial_theirs)
    assert partial_ours.missing_keys == ["bias"] and partial_ours == (["bias"], [])


def test_unpack_dual_outside_a_dual_level_gives_no_tangent_as_pytorch():
    import torch.autograd.forward_ad as theirs

    import unigrad.autograd.forward_ad as ours
    x = torch_ug.ones(2)
    unpacked = ours.unpack_dual(x)
    expected = theirs.unpack_dual(torch.ones(2))
    assert unpacked.primal is x and unpacked.tangent is None and expected.tangent is None
    with pytest.raises(RuntimeError, match="dual_level"):
        ours.make_dual(x, torch_ug.ones(2))


def test_torch_save_and_load_round_trip_paths_and_file_objects(tmp_path):
    import io
    state = {"weight": torch_ug.randn(2, 3), "step": 7, "betas": (0.9, 0.999)}
    torch_ug.save(state, tmp_path / "state.pth")
    buffer = io.BytesIO()
    torch_ug.save(state, buffer)
    buffer.seek(0)
    for loaded in (torch_ug.load(tmp_path / "state.pth"),
                   torch_ug.load(buffer, map_location="cpu", weights_only=True)):
        assert loaded["weight"].tolist() == state["weight"].tolist()
        assert loaded["step"] == 7 and loaded["betas"] == (0.9, 0.999)
    with pytest.raises(TypeError, match="map_location must be None, a device"):
        torch_ug.load(tmp_path / "state.pth", map_location={"cuda:0": "cpu"})
    with pytest.raises(TypeError, match="f must be a path"):
        torch_ug.save(state, 42)


def test_torch_load_reads_a_real_pytorch_checkpoint_into_a_module(tmp_path):
    import unigrad as ug
    reference = torch.nn.Linear(3, 2)
    torch.save(reference.state_dict(), tmp_path / "linear.pt")
    model = torch_ug.nn.Linear(3, 2)
    assert repr(model.load_state_dict(torch_ug.load(tmp_path / "linear.pt"))) == \
        "<All keys matched successfully>"
    assert model.weight.tolist() == reference.weight.tolist()
    assert ug.load(tmp_path / "linear.pt")["bias"].tolist() == reference.bias.tolist()
    x = [[0.5, -1.0, 2.0]]
    assert model(torch_ug.tensor(x)).tolist()[0] == pytest.approx(
        reference(torch.tensor(x)).tolist()[0], abs=1e-6)
