"""The launch bundle: `codegen` renders `templates/` (package data) with every number derived in Python."""
