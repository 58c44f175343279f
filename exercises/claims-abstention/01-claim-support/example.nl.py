feiten = [{"entity": "fiets", "attribute": "merk", "value": "Gazelle", "source": "b2"}]
claim_support([{"entity": "fiets", "attribute": "merk", "value": "Batavus"}], feiten)
