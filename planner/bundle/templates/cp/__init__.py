"""Context parallelism: zig-zag ring attention, Ulysses all-to-all, and both."""
