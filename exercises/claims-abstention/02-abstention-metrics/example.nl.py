voorspellingen = ["ja", None, None, "nee"]
doelen = ["ja", "ja", "nee", "ja"]
abstention_metrics(voorspellingen, doelen)
