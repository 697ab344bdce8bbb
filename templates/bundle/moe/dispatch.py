"""Dispatch tokens to the ranks owning their experts and combine the results.

Experts are split contiguously over the EP group: ep rank j owns experts
[j*El, (j+1)*El). Splits are uneven: counts are exchanged first.
"""
import torch
import torch.distributed as dist

from comms import all_to_all


def dispatch_combine(t, w, sel, experts_fn, experts: int, ep_group, ep_size: int):
    """t: [n, H] tokens, w/sel: [n, k] routing weights / expert ids (dropped
    assignments have weight 0 and sel == -1). Returns [n, H] = sum_k w * expert(t)."""
    n, k = sel.shape
    El = experts // ep_size
    flat_e = sel.flatten()                                            # [n*k]
    flat_tok = torch.arange(n, device=t.device).repeat_interleave(k)
    flat_w = w.flatten()
    kept = flat_e >= 0
    flat_e, flat_tok, flat_w = flat_e[kept], flat_tok[kept], flat_w[kept]
    order = torch.argsort(flat_e, stable=True)                        # group rows by expert
    tok_sorted = flat_tok[order]
    x_send = t[tok_sorted]                                            # [m, H]
    counts = torch.bincount(flat_e[order], minlength=experts)         # [E] rows per expert
    if ep_size == 1:
        y_send = experts_fn(x_send, counts.tolist())
    else:
        # rows[j, e]: rows rank j of the ep group sends to my local expert e
        rows = torch.empty_like(counts)
        dist.all_to_all_single(rows, counts, group=ep_group)
        rows = rows.view(ep_size, El)
        in_splits = counts.view(ep_size, El).sum(1).tolist()
        out_splits = rows.sum(1).tolist()
        x_recv = all_to_all(x_send, ep_group, in_splits, out_splits)  # by source, then expert
        row_expert = torch.arange(El, device=t.device).repeat(ep_size).repeat_interleave(rows.flatten())
        perm = torch.argsort(row_expert, stable=True)                 # regroup by local expert
        y_local = experts_fn(x_recv[perm], rows.sum(0).tolist())
        y_recv = y_local[torch.argsort(perm)]
        y_send = all_to_all(y_recv, ep_group, out_splits, in_splits)
    y = torch.zeros_like(t)
    return y.index_add(0, tok_sorted, y_send * flat_w[order].unsqueeze(1))
