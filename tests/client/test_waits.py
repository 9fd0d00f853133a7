"""Ctrl-C during a wait of the client: the KeyboardInterrupt comes out, never "cannot release
un-acquired lock" (CPython 3.11's Condition.wait can be interrupted after it released the lock)."""
import signal
import threading

import pytest

from kafkacodec.client import _waits


class _InterruptedInTheGap(threading.Condition):
    """A wait interrupted as CPython's can be: after the lock was released, before it is taken back."""

    def wait(self, timeout=None):
        self._release_save()
        raise KeyboardInterrupt


def test_an_interrupt_after_the_lock_was_released_leaves_it_held_for_the_with_block():
    cond = _InterruptedInTheGap(threading.RLock())
    with pytest.raises(KeyboardInterrupt):
        with cond:
            _waits.wait(cond, 1.0)
    assert not cond._is_owned()
    # and the plain wait fails the with block as the helper prevents
    with pytest.raises(RuntimeError, match="un-acquired lock"):
        with cond:
            cond.wait(1.0)


def test_an_interrupt_while_the_lock_is_held_is_passed_on_as_it_is():
    cond = threading.Condition(threading.RLock())

    def interrupted(timeout=None):
        raise KeyboardInterrupt
    cond.wait = interrupted
    with pytest.raises(KeyboardInterrupt):
        with cond:
            _waits.wait(cond, 1.0)
    assert not cond._is_owned()


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_many_interrupted_waits_on_a_busy_condition_each_raise_the_interrupt():
    cond = threading.Condition(threading.RLock())
    stop = threading.Event()

    def notifier():
        while not stop.is_set():
            with cond:
                cond.notify_all()

    class Interrupt(Exception):
        pass
    armed = [False]

    def handler(signum, frame):
        if armed[0]:
            raise Interrupt

    thread = threading.Thread(target=notifier, daemon=True)
    thread.start()
    previous = signal.signal(signal.SIGALRM, handler)
    other_errors = []
    signal.setitimer(signal.ITIMER_REAL, 0.0003, 0.0003)
    try:
        for _ in range(1000):
            armed[0] = True
            try:
                while True:
                    with cond:
                        _waits.wait(cond, 0.0001)
            except Interrupt:
                pass
            except RuntimeError as exc:
                other_errors.append(str(exc))
            finally:
                armed[0] = False
            while cond._is_owned():  # a signal between taking the lock and the with block: CPython's own gap
                cond.release()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        stop.set()
        thread.join(5)
    assert other_errors == []
