"""The cost model's names, without sympy: recompute modules by layer kind, the stage
integers, and the memory / communication term groups. `formulas` builds its symbols from
these; the solvers, the assembly and the compiled-table cache read them here, so the CLI's
hot path (a cache hit) never imports sympy."""

# recompute modules, by the layer kind they exist in (Megatron-LM --recompute-modules)
# plus torchtitan's per-op selective AC ("op"), which replaces the layer's whole save set
DENSE_MODULES = ("core_attn", "layernorm", "mlp", "mla_up_proj", "op")
MOE_MODULES = ("core_attn", "layernorm", "moe", "moe_act", "shared_experts", "mla_up_proj", "op")

# the integers one pipeline stage is described by, in the order of `formulas.STAGE_INTS`
STAGE_COUNTS = ("L_d", "L_m", "Lf_d", "Lf_m")
STAGE_FLAGS = ("e_f", "e_l", "h_m")
R_D = tuple(f"r_d_{k}" for k in DENSE_MODULES)
R_M = tuple(f"r_m_{k}" for k in MOE_MODULES)
STAGE_INT_NAMES = (*STAGE_COUNTS, *R_D, *R_M, *STAGE_FLAGS)

MEMORY_TERMS = ("weights", "grads", "optimizer", "act_mb", "logits", "buffers", "transient")
# the memory a stage holds once (act_mb is held once per in-flight micro-batch)
PERSISTENT_TERMS = ("weights", "grads", "optimizer", "logits", "buffers", "transient")
COMM_TERMS = ("comm_tp", "comm_cp", "comm_ep", "comm_pp")
