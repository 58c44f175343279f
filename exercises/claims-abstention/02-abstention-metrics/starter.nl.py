def abstention_metrics(predictions, targets):
    """Tel antwoorden en onthoudingen en bereken coverage, accuracy en risico.

    predictions: lijst met niet-lege strings of None (None = geen antwoord).
    targets:     even lange lijst met niet-lege strings; 1 tot en met 1000 gevallen.
    Ongeldige invoer: ValueError.

    Geeft een dict met total, answered, correct (int), coverage en overall_accuracy (float),
    answered_accuracy en risk (float, of None als er niets beantwoord is).
    """
    raise NotImplementedError("schrijf abstention_metrics")
