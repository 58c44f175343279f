"""Hidden graders for the lesson claims-abstention (claim support, abstention metrics, risk-coverage curve)."""
