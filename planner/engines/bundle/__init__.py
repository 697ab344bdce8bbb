"""foldplan's own bundle as a target: its search defaults and the attention kernel it runs."""
