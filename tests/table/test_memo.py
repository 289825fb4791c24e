"""ByIdentity (app/table/memo.py): a result per tuple of objects, by identity, the oldest first to go."""

from __future__ import annotations

from app.table.memo import ByIdentity


def test_the_same_objects_get_the_kept_result_and_equal_others_a_new_one():
    memo: ByIdentity[list[int]] = ByIdentity(4)
    part, made = [1, 2], []
    first = memo.get((part,), "x", lambda: made.append(1) or [len(made)])
    assert memo.get((part,), "x", lambda: made.append(1) or [len(made)]) is first
    assert memo.get((part,), "y", lambda: made.append(1) or [len(made)]) == [2]  # another extra
    assert memo.get(([1, 2],), "x", lambda: made.append(1) or [len(made)]) == [3]  # equal, not the same
    assert len(made) == 3


def test_past_its_size_the_first_made_goes_first():
    memo: ByIdentity[int] = ByIdentity(2)
    a, b, c = [0], [1], [2]
    for n, part in enumerate((a, b, c)):
        memo.get((part,), None, lambda n=n: n)
    assert len(memo) == 2
    assert memo.get((b,), None, lambda: -1) == 1 and memo.get((c,), None, lambda: -1) == 2
    assert memo.get((a,), None, lambda: -1) == -1  # made again
