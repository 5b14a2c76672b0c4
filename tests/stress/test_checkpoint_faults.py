"""Faults during ug.save: a killed process, a read-only directory, a file size limit, memory
exhaustion and a full disk. After each the previous checkpoint is intact and loads with the
same values, and no temporary file is left (a killed save's is removed by the next save)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np
import pytest

import unigrad as ug
import unigrad.io as unigrad_io
from unigrad.io import load, save

from ..io.helpers import FailingFile

pytestmark = pytest.mark.stress

pytest.importorskip("safetensors")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OLD_WEIGHT = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.fixture
def existing(tmp_path):
    """A valid checkpoint at the path and its bytes; each test checks it survives."""
    path = tmp_path / "ckpt.safetensors"
    save({"w": ug.tensor(OLD_WEIGHT), "epoch": 3}, path)
    return path, path.read_bytes()


def assert_intact(path, before) -> None:
    assert path.read_bytes() == before
    loaded = load(path)
    assert loaded["epoch"] == 3
    np.testing.assert_array_equal(loaded["w"].numpy(), OLD_WEIGHT)
    assert loaded["w"].dtype == ug.float32


def assert_no_temporary_file(path) -> None:
    assert os.listdir(path.parent) == [path.name]


def run_child(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


NEW_STATE = {"w": ug.ones(64, 1024), "b": ug.zeros(1024), "epoch": 4}


# ------------------------------------------------------------------ kill -9

def test_kill_9_mid_save_keeps_the_old_file_and_the_next_save_cleans_up(existing):
    path, before = existing
    marker = path.parent.parent / f"{path.parent.name}-writing"
    code = f"""
        import os, time
        import unigrad as ug
        import unigrad.io as unigrad_io
        real = unigrad_io._stored_bytes
        calls = []

        def slow(array):  # the second tensor never comes: killed while writing
            calls.append(1)
            if len(calls) == 2:
                open({str(marker)!r}, "w").close()
                time.sleep(120)
            return real(array)

        unigrad_io._stored_bytes = slow
        ug.save({{"a": ug.ones(256, 1024), "b": ug.ones(256, 1024), "epoch": 4}},
                {str(path)!r})
    """
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert child.poll() is None, "the child ended before writing"
            assert time.monotonic() < deadline, "the child never started writing"
            time.sleep(0.02)
        temporaries = [name for name in os.listdir(path.parent) if name != path.name]
        assert len(temporaries) == 1
        assert temporaries[0].startswith(f".ckpt.safetensors.{child.pid}.")
        assert os.path.getsize(path.parent / temporaries[0]) >= 2**20  # mid-write
        child.kill()  # SIGKILL: no cleanup code runs
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -9
    assert (path.parent / temporaries[0]).exists()  # left behind by the killed process
    assert_intact(path, before)
    save({"w": ug.tensor(OLD_WEIGHT), "epoch": 3}, path)  # the next save removes it
    assert_no_temporary_file(path)
    assert_intact(path, before)


# --------------------------------------------------------- permission denied

def test_unwritable_directory_raises_permission_error(existing, monkeypatch):
    path, before = existing
    if os.name == "posix" and os.geteuid() != 0:
        os.chmod(path.parent, 0o555)
    else:  # root ignores directory permissions: fail where the OS would have
        def denied(*args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied", str(path.parent))

        monkeypatch.setattr(tempfile, "mkstemp", denied)
    try:
        with pytest.raises(PermissionError) as info:
            save(NEW_STATE, path)
        assert info.value.errno == errno.EACCES
    finally:
        os.chmod(path.parent, 0o755)
    assert_intact(path, before)
    assert_no_temporary_file(path)


# ------------------------------------------------------------ file size limit

@pytest.mark.skipif(os.name != "posix", reason="needs resource.setrlimit")
def test_file_size_limit_raises_efbig(existing):
    path, before = existing
    result = run_child(f"""
        import resource, signal
        import unigrad as ug
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead
        limit = 128 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        try:
            ug.save({{"w": ug.ones(64, 1024), "epoch": 4}}, {str(path)!r})
        except OSError as error:
            print(type(error).__name__, error.errno)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["OSError", str(errno.EFBIG)]
    assert_intact(path, before)
    assert_no_temporary_file(path)


# --------------------------------------------------------------- memory

def test_memory_error_while_writing_propagates(existing, monkeypatch):
    path, before = existing
    real = unigrad_io._stored_bytes
    calls = []

    def exhausted(array):
        calls.append(1)
        if len(calls) == 2:
            raise MemoryError("cannot allocate the tensor copy")
        return real(array)

    monkeypatch.setattr(unigrad_io, "_stored_bytes", exhausted)
    with pytest.raises(MemoryError, match="cannot allocate"):
        save(NEW_STATE, path)
    assert len(calls) == 2
    assert_intact(path, before)
    assert_no_temporary_file(path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs RLIMIT_AS")
def test_under_an_address_space_limit_streaming_saves_or_raises_memory_error(existing):
    """With 64 MiB of headroom: a 128 MiB contiguous tensor is saved (streamed, never
    copied); a 128 MiB transposed one needs a copy and raises MemoryError, not SIGABRT."""
    path, before = existing
    result = run_child(f"""
        import resource
        import numpy as np
        import unigrad as ug
        big = ug.tensor(np.ones((4096, 8192), np.float32))  # 128 MiB
        with open("/proc/self/status") as status:
            used = next(int(line.split()[1]) * 1024 for line in status
                        if line.startswith("VmSize:"))
        limit = used + 64 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        ug.save({{"big": big}}, {str(path)!r} + ".new")
        print("saved")
        try:
            ug.save({{"w": big.t(), "epoch": 4}}, {str(path)!r})
        except MemoryError:
            print("MemoryError")
    """, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["saved", "MemoryError"]
    new = path.parent / (path.name + ".new")
    loaded = load(new)["big"]
    assert loaded.shape == (4096, 8192) and float(loaded.sum()) == 4096 * 8192
    new.unlink()
    assert_intact(path, before)
    assert_no_temporary_file(path)


# ------------------------------------------------------------------ full disk

def test_disk_full_mid_write_raises_enospc(existing, monkeypatch):
    path, before = existing
    real_fdopen = os.fdopen
    written = []

    class FillsUp(FailingFile):
        """A file whose disk fills after 100 KiB: a short write, then ENOSPC."""

        def write(self, data):
            room = 100 * 1024 - sum(written)
            if len(data) > room:
                self.file.write(bytes(data)[:room])
                written.append(room)
                raise OSError(errno.ENOSPC, "No space left on device")
            written.append(len(data))
            return self.file.write(data)

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: FillsUp(real_fdopen(fd, mode)))
    with pytest.raises(OSError) as info:
        save(NEW_STATE, path)
    assert info.value.errno == errno.ENOSPC
    assert sum(written) == 100 * 1024  # the temporary file really was partly written
    assert_intact(path, before)
    assert_no_temporary_file(path)
