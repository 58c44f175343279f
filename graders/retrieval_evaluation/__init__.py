"""Hidden graders of the lesson retrieval-evaluation."""
