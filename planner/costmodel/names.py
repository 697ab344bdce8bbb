"""The cost model's names, without sympy: recompute modules by layer kind, the stage
integers, and the memory / communication term groups. `formulas` builds its symbols from
these; the solvers, the assembly and the compiled-table cache read them here, so the CLI's
hot path (a cache hit) never imports sympy."""

# recompute modules, by the layer kind they exist in (Megatron-LM --recompute-modules)
# plus torchtitan's per-op selective AC ("op"), which replaces the layer's whole save set
DENSE_MODULES = ("core_attn", "layernorm", "mlp", "mla_up_proj", "op")
MOE_MODULES = ("core_attn", "layernorm", "moe", "moe_act", "shared_experts", "mla_up_proj", "op")

# the integers one pipeline stage is described by, in the order of `symbols.STAGE_INTS`
STAGE_COUNTS = ("L_d", "L_m", "Lf_d", "Lf_m")
STAGE_FLAGS = ("e_f", "e_l", "h_m")
R_D = tuple(f"r_d_{k}" for k in DENSE_MODULES)
R_M = tuple(f"r_m_{k}" for k in MOE_MODULES)
STAGE_INT_NAMES = (*STAGE_COUNTS, *R_D, *R_M, *STAGE_FLAGS)

MEMORY_TERMS = ("weights", "grads", "optimizer", "act_mb", "logits", "buffers", "transient")
# the memory a stage holds once (act_mb is held once per in-flight micro-batch)
PERSISTENT_TERMS = ("weights", "grads", "optimizer", "logits", "buffers", "transient")
COMM_TERMS = ("comm_tp", "comm_cp", "comm_ep", "comm_pp")

# what `explain` prints beside each symbol
SYMBOL_DOC = {
    "h": "hidden", "a": "heads", "g": "kv heads", "d_h": "head dim", "V": "vocab", "F": "dense FFN width",
    "n_m": "matrices per FFN", "E": "experts", "K": "top-k", "F_e": "expert FFN width",
    "E_s": "shared experts", "F_s": "shared expert width", "S": "sequence", "b": "micro-batch",
    "t": "tp", "c": "cp", "d": "dp", "p": "pp", "v": "vpp", "t_e": "etp", "M_e": "ep", "D_e": "edp",
    "c_u": "cp Ulysses part", "c_r": "cp ring part", "t_s": "tp if sequence parallel else 1",
    "t_g": "min(tp, kv heads)", "Pk": "peak FLOP/s", "eta": "GEMM efficiency",
    "eta_g": "routed experts' bf16 grouped GEMM efficiency (its kernel's)",
    "eta_a": "attention efficiency", "imb": "MoE busiest/mean load", "W_hbm": "achieved HBM bandwidth",
    "u_ep": "GEMM epilogue seconds per output byte (1 / W_hbm where measured)",
    "z_1": "sharding >= zero1", "z_2": "sharding >= zero2", "z_3": "sharding == zero3",
    "mu": "fp32 master is the sharded param (FSDP2)", "b_r": "gradient reduce bytes",
    "b_o": "optimizer-state bytes per parameter (fp32 master + m + v 12, FSDP2 m + v 8, pure bf16 4)",
    "b_l": "bytes per logit element at the loss's peak",
    "b_y": "bytes per expert-output element kept for the routing weights' gradient",
    "q_p2p": "CP ring passes behind attention (p2p)", "q_agr": "CP all-gather behind the first block (ag-ring)",
    "n_ag": "exposed whole-K/V CP collectives per layer", "q_sv": "gathered K/V saved for backward",
    "c_b": "causal mask not load-balanced",
    "k_f": "attention core work of the layer kinds / full causal (mean over layers)",
    "n_ix": "sparse-attention indexer heads", "d_ix": "sparse-attention indexer head dim",
}
