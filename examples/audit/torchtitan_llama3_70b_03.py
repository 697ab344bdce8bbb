"""A torchtitan 0.3 config module as a user writes one (torchtitan/config/manager.py loads it):

    PYTHONPATH=. torchrun --nproc-per-node 8 -m torchtitan.train \
        --module torchtitan_llama3_70b_03 --config llama3_70b_long

It starts from torchtitan's registry function llama3_70b() (tensor_parallel_degree 8, FullAC) and
adds a longer sequence, context and pipeline parallelism and the loss compiled (float8 linears,
model_registry("70B", converters=[Float8LinearConverter.Config()]), need torchao at load time).
`foldplan audit` reads it from its syntax tree; it is not run.
"""
from torchtitan.config import CompileConfig
from torchtitan.models.llama3 import model_registry
from torchtitan.models.llama3.config_registry import llama3_70b


def llama3_70b_long():
    config = llama3_70b()
    config.model_spec = model_registry("70B")
    config.training.seq_len = 32768
    config.training.local_batch_size = 4
    config.training.disable_cuda_graphs = True
    config.parallelism.context_parallel_degree = 2
    config.parallelism.pipeline_parallel_degree = 2
    config.parallelism.pipeline_parallel_microbatch_size = 1
    config.compile = CompileConfig(enable=True, components=["model", "loss"])
    return config
