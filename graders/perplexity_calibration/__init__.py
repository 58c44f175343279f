"""Hidden graders of the lesson perplexity-calibration (one module per checkpoint)."""
