"""DeepSpeed: its start-up rules (`rules`, one table) and its JSON config and launcher flags read (`read`)."""
