"""Point-to-point ring exchange for ring attention (batched isend/irecv)."""
import torch
import torch.distributed as dist


def ring_exchange(t, send_rank, recv_rank, group, tag):
    """Start sending t to the next rank and receiving the same shape from the
    previous one; returns (requests, receive buffer). Do not modify t before wait."""
    recv = torch.empty_like(t)
    ops = [dist.P2POp(dist.isend, t, send_rank, group, tag),
           dist.P2POp(dist.irecv, recv, recv_rank, group, tag)]
    return dist.batch_isend_irecv(ops), recv


def wait(reqs):
    for r in reqs:
        r.wait()
