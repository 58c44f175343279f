mean_reciprocal_rank([["d3", "d1", "d7"], ["d2", "d5"]], [["d1"], ["d2", "d9"]])
