reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]])
