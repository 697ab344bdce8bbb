"""DeepSpeed: its JSON config and launcher flags read (`read`)."""
