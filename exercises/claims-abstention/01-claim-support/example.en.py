facts = [{"entity": "bike", "attribute": "brand", "value": "Raleigh", "source": "b2"}]
claim_support([{"entity": "bike", "attribute": "brand", "value": "Brompton"}], facts)
