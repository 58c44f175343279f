mean_reciprocal_rank([["d3", "d1", "d7"], ["d2", "d5"], ["d4", "d6", "d8"]], [["d1"], ["d2", "d9"], ["d0"]])
