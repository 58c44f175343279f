scores = [0.2, 0.6, 0.6, 0.9]
goed = [False, True, False, True]
risk_coverage_curve(scores, goed, [0.9, 0.2, 0.9])
