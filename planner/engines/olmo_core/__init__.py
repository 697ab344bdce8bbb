"""OLMo-core (ai2-olmo-core 3.0.0) as a target, an export and an audit source."""
