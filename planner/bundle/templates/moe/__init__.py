"""Mixture of experts: routing on local rows, EP all-to-all dispatch/combine, local experts."""
