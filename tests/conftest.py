"""Test-session settings.

Bundles launched by the tests run their blocks eagerly: TORCH_COMPILE_DISABLE=1 (torch's own
switch) makes the bundle's regional torch.compile (templates/fused.py) a no-op in every process
the tests start, because compiling costs each launch about twice its eager CPU time. The
compiled path has its own tests (tests/test_bundle_compile.py), which launch without it.
"""
import os

os.environ.setdefault("TORCH_COMPILE_DISABLE", "1")
