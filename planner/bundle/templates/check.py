"""--check: the same steps in one process, no parallelism, compared with this rank's shards.

Every rank runs the (tiny) reference itself (reference.py, its own model code)
and compares the slices it holds, at every step:

  before step 0   the running program is the plan's (check_plan.py: stages, layers,
                  folding, recompute as configured); initial weights; the router
                  bias is set to the reference's non-zero start
  each step       loss, every gradient (a missing one is a mismatch), then every
                  parameter and router bias after AdamW and the bias update
  after step 0    recompute as planned, observed (check_plan.RecomputeProbe)
  at the end      together the ranks compared every element of every parameter

Two steps at micro-batch 2 by default (train.py): the second starts from
moved weights and biases, so a stale gradient or a wrong bias update shows. After the
parameters of a step are compared, the reference takes the run's parameters (every rank's
slices, gathered): each step is checked from the same weights, so fp32 rounding does not
compound across steps (AdamW turns a gradient difference near zero into up to lr / eps
times as much parameter difference, adamw_sensitivity).

Tolerance of an element (|got - want| <= tol): atol + rtol |want|, and for a gradient
element also 2 gamma_n sum|terms| (gradient_slack): the run sums the same n terms as the
reference (rows over micro-batches, dp, cp and tp partial sums) in another order, and a
float32 sum of n terms in any order is within gamma_n sum|terms| of the exact sum
(Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.4),
gamma_n = n u / (1 - n u), u = 2^-24; reference.Magnitudes records sum|terms| and n.
Under an FP8 precision the reference still trains in fp32 beside the run (its loss is
printed), but the loss, gradients, parameters and biases are not compared with it; every
FP8 GEMM of each step is, with the check's own quantisation (check_fp8.py).
"""
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F

import fp8
import layout
from check_fp8 import Fp8Calls
from check_plan import RecomputeProbe, plan_mismatches
from dataparallel import full
from reference import Magnitudes, Reference, initial_bias

UNIT_ROUNDOFF = {torch.float32: 2.0 ** -24, torch.float64: 2.0 ** -53, torch.bfloat16: 2.0 ** -8}


def local_positions(seq, ring_rank, ring_size, uly_rank, uly_size):
    """Global positions of the tokens a cp rank holds (zig-zag over the ring: chunks r and
    2R-1-r of 2R; then the Ulysses rank's contiguous piece), written apart from cp/layout.py."""
    chunk = seq // (2 * ring_size)
    mine = list(range(ring_rank * chunk, (ring_rank + 1) * chunk))
    mine += list(range((2 * ring_size - 1 - ring_rank) * chunk, (2 * ring_size - ring_rank) * chunk))
    piece = len(mine) // uly_size
    return torch.tensor(mine[uly_rank * piece:(uly_rank + 1) * piece])


def adamw_sensitivity(lr: float, eps: float, step: int) -> float:
    """A bound on |d(AdamW update)/d(gradient)| per element at `step` (0-based).
    Step 0: the update is lr * g / (|g| + eps) (m_hat = g, v_hat = g^2); its derivative
    lr * eps / (|g| + eps)^2 is at most lr / eps. Step 1 (betas 0.9, 0.95): m_hat weighs
    the two gradients 0.474 / 0.526 and v_hat 0.487 / 0.513, so by Cauchy-Schwarz
    |m_hat| <= 1.0004 sqrt(v_hat); the m_hat term is at most lr / eps and the v_hat term at
    most 1.0004 * sqrt(0.513) * lr / eps, under 2 lr / eps together.
    A gradient difference dg within its own tolerance (atol + rtol |g|) then moves the
    parameter by at most (lr / eps) * atol, plus lr * rtol / 4 from the rtol part
    (eps |g| / (|g| + eps)^2 <= 1/4): Checker.after_step adds both per step."""
    return (1.0 if step == 0 else 2.0) * lr / eps


def gamma(n: int, dtype=torch.float32) -> float:
    """gamma_n = n u / (1 - n u): the relative error bound of a sum of n terms (Higham eq. 3.8)."""
    nu = n * UNIT_ROUNDOFF[dtype]
    return nu / (1.0 - nu) if nu < 1.0 else float("inf")


def gradient_slack(mag: Magnitudes, name: str) -> torch.Tensor:
    """Per element of `name`'s gradient: 2 gamma_n sum|terms| (both sums, the run's and the
    reference's, are within gamma_n sum|terms| of the exact one)."""
    return 2.0 * gamma(mag.count(name)) * mag.sum_abs[name]


def capacity_groups(train):
    """The tokens each rank routes, per micro-batch, as indices into the flattened
    [B*S] batch, in that rank's order (the capacity factor applies per group)."""
    L, S, mb, nmb = layout.LAYOUT, train["seq"], train["micro_batch"], train["num_microbatches"]
    groups = []
    for d in range(L["dp"]):
        for i in range(nmb):
            rows = torch.arange(mb) + (d * nmb + i) * mb
            for c in range(L["cp"]):
                pos = local_positions(S, c // L["cp_ulysses"], L["cp_ring"], c % L["cp_ulysses"], L["cp_ulysses"])
                n = len(pos) // L["tp"]             # sequence parallel: tp rank r routes rows r*n.. of each sequence
                groups += [(rows[:, None] * S + pos[None, r * n:(r + 1) * n]).flatten() for r in range(L["tp"])]
    return groups


class Checker:
    def __init__(self, cfg, train, seed, mesh, tol, adam, aux_coef=0.0):
        self.cfg, self.mesh, (self.rtol, self.atol) = cfg, mesh, tol
        groups = capacity_groups(train)
        self.ref = Reference(cfg, seed, groups if cfg["capacity_factor"] is not None else None,
                             aux_coef, groups)
        betas, wd, eps = adam
        self.eps, self.param_atol = eps, self.atol
        self.opt = torch.optim.AdamW(self.ref.parameters(), lr=0.0, betas=betas, weight_decay=wd, eps=eps)
        self.seed, self.step, self.t0 = seed, 0, time.perf_counter()
        self.checked, self.failed, self.worst, self.lines = 0, 0, 0.0, []
        self.loss_par, self.losses, self.probe = None, [], None
        self.eod = None                      # --doc-mask: the EOD id (train.py sets it)
        self.ref.mag = Magnitudes(self.ref.shapes)
        self.covered = {n: torch.zeros(p.shape, dtype=torch.int32) for n, p in self.ref.named().items()}
        self.holes = 0                       # parameter elements no rank holds (start())
        self.fp8 = Fp8Calls() if fp8.gemms().fp8 else None       # FP8: the GEMMs instead (check_fp8.py)

    # ------------------------------------------------------------ comparisons
    def _fail(self, line):
        self.failed += 1
        if len(self.lines) < 8:
            self.lines.append(f"rank {self.mesh.rank}: {line}")

    def _cmp(self, what, got, want, atol=None, slack=None):
        """got within atol + rtol |want| (+ slack, per element) of want."""
        got, want = got.detach().float().cpu(), want.detach().float()
        self.checked += 1
        if got.shape != want.shape:
            return self._fail(f"{what}: shape {tuple(got.shape)}, reference {tuple(want.shape)}")
        if not got.numel():
            return
        diff = (got - want).abs()
        tol = (self.atol if atol is None else atol) + self.rtol * want.abs() + (0.0 if slack is None else slack)
        err = diff.max().item()
        self.worst = max(self.worst, err)
        over = diff > tol
        if over.any() or diff.isnan().any():
            i = int(torch.argmax(torch.where(over, diff / tol, torch.zeros_like(diff))))
            self._fail(f"{what} differs: {int(over.sum())} of {diff.numel()} elements over tolerance, "
                       f"max abs err {err:.3e}; worst element {diff.flatten()[i].item():.3e} against a tolerance "
                       f"of {tol.flatten()[i].item():.3e}")

    @staticmethod
    def _slice(t, meta):
        for dim, start, n in meta.slices:
            t = t.narrow(dim, start, n)
        return t

    def _progress(self, what):
        if self.mesh.rank == 0:
            print(f"check: step {self.step}: {what} ({time.perf_counter() - self.t0:.1f} s)", flush=True)

    # ------------------------------------------------------------ the phases train.py calls
    def start(self, stages, pm):
        """Before step 0: the plan, the initial weights, the router bias; start the probe."""
        for line in plan_mismatches(stages, self.mesh):
            self._fail(line)
        self.checked += 1
        named = self.ref.named()
        for p, m in pm:                      # full(): collective, same order on every rank of a stage
            self._cmp(f"param {m.full_name} at init", full(p), self._slice(named[m.full_name], m))
            self._slice(self.covered[m.full_name], m).add_(1)
        for c in self.covered.values():      # every element of every parameter held by some rank
            c = c.to(self.mesh.device)
            dist.all_reduce(c)
            self.holes += int((c == 0).sum())
        self.covered = None
        for st in stages:
            for moe in st.moe_layers():
                i = int(moe.prefix.split(".")[1])                 # "layers.{i}.moe."
                moe.bias.copy_(self.ref.bias[i].to(moe.bias))
        self.probe = RecomputeProbe(stages)
        self.probe.__enter__()

    def after_backward(self, data, loss, pm):
        """The reference's step (forward, backward) on the same batch; loss and gradients."""
        if self.probe is not None:           # only step 0 runs under the probe
            self.probe.__exit__(None, None, None)
            for line in self.probe.mismatches(self.mesh):
                self._fail(line)
            self.checked, self.probe = self.checked + 1, None
        self._progress("parallel forward/backward done; reference step")
        self.opt.zero_grad(set_to_none=True)
        self.ref.mag.reset()
        ref_loss = self._ref_loss(data)
        (ref_loss + self.ref.aux).backward()      # the balancing loss enters the gradients, not the loss shown
        self.losses.append(ref_loss.item())
        total = self._total(loss)
        if self.fp8 is not None:             # FP8: every FP8 GEMM of the step; the fp32 run's loss only shown
            self.fp8.verify(self, self.step, {m.full_name for _, m in pm})
            return
        if total is not None:
            self._cmp(f"loss of step {self.step}", total.cpu(), ref_loss.detach())
        named = self.ref.named()
        for p, m in pm:
            want = self._slice(named[m.full_name].grad, m)
            if p.grad is None:
                self._fail(f"grad {m.full_name} of step {self.step} is missing")
                continue                     # (FSDP2: then missing on every rank of its unit)
            slack = self._slice(gradient_slack(self.ref.mag, m.full_name), m)
            self._cmp(f"grad {m.full_name} of step {self.step}", full(p.grad), want, slack=slack)

    def _ref_loss(self, data):
        logits = self.ref(data[:, :-1], self.eod)                        # [B, S, V]
        targets = data[:, 1:]
        if self.eod is not None:             # --doc-mask: no loss where the input token is EOD
            targets = torch.where(data[:, :-1] == self.eod, -100, targets)
        return F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=-100)

    def _total(self, loss):
        """The step's loss summed over dp x cp x tp (it lives on the last stage), or None."""
        if loss is None:
            return None
        total = loss.detach().float().clone()
        dist.all_reduce(total, group=self.mesh.stage_group)
        self.loss_par = total.item()
        return total

    def after_step(self, lr, pm, moes):
        """The reference's AdamW step at the same lr and its bias update; parameters, biases."""
        for g in self.opt.param_groups:
            g["lr"] = lr
        self.opt.step()
        self.ref.update_bias()
        if self.fp8 is not None:             # FP8: the reference trains in fp32 beside it, not compared
            self._progress(f"FP8 GEMMs compared; the fp32 reference's loss {self.losses[-1]:.6f}, not compared")
            self.step += 1
            return
        named = self.ref.named()
        self.param_atol += adamw_sensitivity(lr, self.eps, self.step) * (self.atol + self.rtol * self.eps / 4)
        held = {}                            # name -> [(meta, this rank's slice)]
        for p, m in pm:
            got = full(p).detach().float().cpu()
            self._cmp(f"param {m.full_name} after step {self.step}", got, self._slice(named[m.full_name], m),
                      self.param_atol)
            held.setdefault(m.full_name, []).append((m, got))
        self._take_parameters(held)
        for moe in moes:
            i = int(moe.prefix.split(".")[1])
            self._cmp(f"router bias of layer {i} after step {self.step}", moe.bias, self.ref.bias[i])
        self._progress("compared")
        self.step += 1

    @torch.no_grad()
    def _take_parameters(self, held: dict):
        """The reference continues from the run's parameters: each parameter assembled from every
        rank's slices (a max over the world, -inf where a rank holds nothing; replicas are equal), one
        parameter at a time, in the same order on every rank. The next step is checked from the same
        weights."""
        for n, p in self.ref.named().items():
            whole = torch.full(p.shape, float("-inf"))
            for m, got in held.get(n, ()):
                if got.shape == self._slice(whole, m).shape:
                    self._slice(whole, m).copy_(got)
            whole = whole.to(self.mesh.device)
            dist.all_reduce(whole, op=dist.ReduceOp.MAX)
            whole = whole.cpu()
            p.copy_(torch.where(torch.isfinite(whole), whole, p))

    def _merged_lines(self) -> list:
        """Every rank's mismatch lines on rank 0, one line per text with the ranks that saw it."""
        every = [None] * self.mesh.world
        dist.all_gather_object(every, self.lines)
        ranks = {}
        for lines in every:
            for line in lines:
                rank, text = line.split(": ", 1)
                ranks.setdefault(text, []).append(int(rank.split()[1]))
        return [f"{text} (rank{'s' if len(r) > 1 else ''} {_spans(sorted(r))})" for text, r in ranks.items()]

    def report(self) -> bool:
        dev = self.mesh.device
        if self.holes and self.mesh.rank == 0:
            self._fail(f"{self.holes} parameter elements are held by no rank")
        stats = torch.tensor([self.checked, self.failed], dtype=torch.float64, device=dev)
        dist.all_reduce(stats)
        worst = torch.tensor([self.worst, -1.0 if self.loss_par is None else self.loss_par], device=dev)
        dist.all_reduce(worst, op=dist.ReduceOp.MAX)
        lines = self._merged_lines()
        ok = stats[1].item() == 0 and self.step >= 2
        if self.mesh.rank == 0:
            verdict = "PASS" if ok else "FAIL"
            steps = "" if self.step >= 2 else f" (only {self.step} step(s); the check needs 2)"
            what = ("plan, initial weights, every FP8 GEMM of each step against the check's quantise-then-matmul "
                    "and which linears ran FP8, recompute; loss, gradients and parameters not compared under FP8"
                    if self.fp8 is not None else "plan, initial weights, loss, gradients, parameters and router "
                    "biases after each AdamW step, recompute")
            print(f"CHECK {verdict}: loss {worst[1].item():.6f} (reference {self.losses[-1]:.6f}) after "
                  f"{self.step} steps{steps}; {int(stats[0])} comparisons ({what}) on all ranks, "
                  f"{int(stats[1])} mismatched; max abs err {worst[0].item():.3e} "
                  f"(rtol {self.rtol}, atol {self.atol}; parameters after the last AdamW step atol "
                  f"{self.param_atol:.2e}; gradients also 2 gamma_n sum|terms|, float32)"
                  + "".join(f"\n  {line}" for line in lines[:16])
                  + (f"\n  ... and {len(lines) - 16} more" if len(lines) > 16 else ""), flush=True)
        dist.barrier()
        return ok


def _spans(ranks: list) -> str:
    """[0, 1, 2, 5] -> '0-2, 5'."""
    out, start = [], None
    for i, r in enumerate(ranks):
        if start is None:
            start = r
        if i + 1 == len(ranks) or ranks[i + 1] != r + 1:
            out.append(str(start) if start == r else f"{start}-{r}")
            start = None
    return ", ".join(out)
