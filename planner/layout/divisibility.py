"""The two divisibility conditions every rule table states through one function each.

* `local_heads` / `ulysses_divides`: Ulysses' all-to-all over `cp_ulysses` ranks reshapes the heads
  one TP rank holds into (B, S/u, u, h/u, D), so u divides each local head count. Which counts a
  rank holds (query, key/value; replicated kv heads) is the engine's; the division is this module's.
* `seq_divisor`: the number a sequence length must be a multiple of. Context parallel over cp ranks
  cuts each sequence into `chunks * cp` pieces (2: the zig-zag causal load balance, 1: a plain
  split), and sequence parallel cuts it again over tp. Each engine passes its own factors (its
  condition legitimately differs, cited at its rule); the product is computed only here.
"""
from __future__ import annotations


def local_heads(count: int, tp: int) -> int:
    """The heads of one kind (`count`: query or key/value heads) one TP rank holds: count / tp. Where tp
    does not divide `count` the count unchanged: the tp rules (tp.heads, tp.kv_heads) refuse or replicate
    that case, and a rule reading this one then judges the whole count."""
    return count // tp if tp and count % tp == 0 else count


def ulysses_divides(cp_ulysses: int, *local: int) -> bool:
    """Whether Ulysses' all-to-all over `cp_ulysses` ranks splits every local head count in `local`
    (each a count one TP rank holds): true for cp_ulysses <= 1 (no all-to-all)."""
    return cp_ulysses <= 1 or all(n % cp_ulysses == 0 for n in local)


def seq_divisor(cp: int, tp: int = 1, *, chunks: int = 2, sequence_parallel: bool = True) -> int:
    """What every sequence length must be a multiple of: `chunks` pieces per context-parallel rank where
    cp > 1 (none where cp == 1), times tp where the sequence is also split over tensor parallel ranks
    (`sequence_parallel`)."""
    return (chunks * cp if cp > 1 else 1) * (tp if sequence_parallel else 1)
