"""Hidden graders for the test lesson micropip-demo (a lesson with a vendored extra wheel)."""
