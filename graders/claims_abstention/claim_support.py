"""Hidden grader: claims-abstention, checkpoint 1 (claim_support)."""
from graders.claims_abstention.common import case_builders

TIME_LIMIT = 5.0
RANDOM_CASES = 25

LAMP = {"entity": "lamp", "attribute": "kleur", "value": "blauw"}


def claim(entity="lamp", attribute="kleur", value="blauw"):
    """A claim dict with exactly the three claim keys."""
    return {"entity": entity, "attribute": attribute, "value": value}


def fact(source, entity="lamp", attribute="kleur", value="blauw"):
    """A fact row: the claim keys plus a source."""
    return {"entity": entity, "attribute": attribute, "value": value, "source": source}


# _case(case_id, claims, facts, nl, en, ar, hint=None) and _invalid(case_id, claims, facts, nl, en, ar)
_case, _invalid = case_builders(
    "claim_support", 2,
    invalid_hint={"nl": "Controleer alle invoer vóór je iets berekent en gooi dan ValueError.",
                  "en": "Validate all input before computing anything, and raise ValueError.",
                  "ar": "تحقّق من كل الإدخال قبل أي حساب، وارفع ValueError."})


def curated():
    """Yield the curated cases, in the order a learner should meet them."""
    blue, red, weight = claim(), claim(value="rood"), claim(attribute="gewicht")
    seed_facts = [fact("s1")]

    yield _case(
        "seed-three-statuses", [blue, red, weight], seed_facts,
        "Het voorbeeld uit de les: blauw is supported, rood is contradicted, gewicht is unknown (geen feit over "
        "dat attribuut). Ook een tegengesproken claim noemt de bron s1.",
        "The lesson's example: blue is supported, red is contradicted, weight is unknown (no fact about that "
        "attribute). A contradicted claim lists source s1 as well.",
        "مثال الدرس: الأزرق supported، والأحمر contradicted، والوزن unknown (لا حقيقة عن هذه السمة). "
        "والادعاء المتناقض يذكر المصدر s1 أيضًا.",
        hint={"nl": "Bewijs zijn alleen feitregels met hetzelfde entity én attribute. Geen bewijs: unknown met []; "
                    "anders noemt sources alle bronnen van die regels, ook bij contradicted.",
              "en": "Evidence is only fact rows with the same entity and attribute. No evidence: unknown with []; "
                    "otherwise sources lists every source of those rows, for contradicted too.",
              "ar": "الدليل هو صفوف الحقائق ذات الكيان والسمة نفسيهما فقط. بلا دليل: unknown مع []؛ وإلا فإن "
                    "sources تذكر كل مصادر تلك الصفوف، حتى في contradicted."})
    yield _case(
        "seed-conflict", [blue], seed_facts + [fact("s2", value="rood")],
        "Het tweede voorbeeld: de lamp is als blauw (s1) én rood (s2) geregistreerd. Dat is conflict, met "
        "bronnen ['s1', 's2'], ook al past blauw.",
        "The second example: the lamp is registered as blue (s1) and red (s2). That is conflict, with sources "
        "['s1', 's2'], even though blue matches.",
        "المثال الثاني: المصباح مسجّل أزرق (s1) وأحمر (s2). هذا conflict بالمصادر ['s1', 's2'] "
        "رغم أن الأزرق مطابق.",
        hint={"nl": "Tel verschillende waarden per (entity, attribute), niet of de claimwaarde erbij zit.",
              "en": "Count distinct values per (entity, attribute) first, before looking for the claim's value.",
              "ar": "عُدّ القيم المختلفة لكل (entity, attribute) أولًا، قبل البحث عن قيمة الادعاء."})
    yield _case(
        "contradicted-sources", [red], [fact("s4"), fact("s3")],
        "Twee bronnen zeggen allebei blauw: dat is één geregistreerde waarde, dus geen conflict. De claim zegt "
        "rood: contradicted, en sources noemt beide bronnen (['s3', 's4']): ook tegenbewijs heeft een herkomst.",
        "Two sources both say blue: that is one registered value, so no conflict. The claim says red: "
        "contradicted, and sources lists both (['s3', 's4']): counter-evidence has an origin too.",
        "مصدران يقولان كلاهما أزرق: هذه قيمة مسجلة واحدة، فلا تعارض. والادعاء يقول أحمر: contradicted، "
        "وsources تذكر المصدرين (['s3', 's4']): للدليل المضاد مصدر أيضًا.",
        hint={"nl": "Tel verschillende waarden (een set), geen feitregels; en geef bij contradicted ook de bronnen.",
              "en": "Count distinct values (a set), not fact rows; and list the sources for contradicted too.",
              "ar": "عُدّ القيم المختلفة (مجموعة set) لا صفوف الحقائق؛ واذكر المصادر في حالة contradicted أيضًا."})
    yield _case(
        "same-value-two-sources", [blue], [fact("s2"), fact("s1")],
        "Twee bronnen registreren dezelfde waarde blauw. Dat is één waarde, dus supported (geen conflict), en "
        "beide bronnen staan gesorteerd in sources.",
        "Two sources register the same value blue. That is one value, so supported (not conflict), and both "
        "sources appear, sorted, in sources.",
        "مصدران يسجّلان القيمة نفسها (أزرق). هذه قيمة واحدة، إذن supported وليس conflict، والمصدران "
        "مذكوران مرتبين في sources.",
        hint={"nl": "Conflict gaat over verschillende waarden, niet over het aantal feitregels.",
              "en": "Conflict is about distinct values, not about the number of fact rows.",
              "ar": "التعارض يتعلق بالقيم المختلفة، لا بعدد صفوف الحقائق."})
    yield _case(
        "same-source-twice", [blue], [fact("s1"), fact("s1")],
        "Dezelfde feitregel staat twee keer in de registratie. De bron s1 verschijnt maar één keer in sources.",
        "The same fact row appears twice in the registry. Source s1 is listed only once.",
        "صف الحقيقة نفسه مكرر مرتين في السجل. يظهر المصدر s1 مرة واحدة فقط في sources.",
        hint={"nl": "Maak de bronnen uniek, bijvoorbeeld met een set, en sorteer daarna.",
              "en": "Make the sources unique, for instance with a set, then sort them.",
              "ar": "اجعل المصادر فريدة، مثلًا بمجموعة set، ثم رتّبها."})
    yield _case(
        "unsorted-sources", [blue], [fact("s3"), fact("s1"), fact("s2")],
        "De bronnen komen in de volgorde s3, s1, s2 binnen; het resultaat noemt ze gesorteerd: ['s1', 's2', 's3'].",
        "The sources arrive as s3, s1, s2; the result lists them sorted: ['s1', 's2', 's3'].",
        "تصل المصادر بالترتيب s3 ثم s1 ثم s2؛ والنتيجة تذكرها مرتبة: ['s1', 's2', 's3'].",
        hint={"nl": "Gebruik sorted() op de unieke bronnen.",
              "en": "Apply sorted() to the unique sources.",
              "ar": "استخدم sorted() على المصادر الفريدة."})
    yield _case(
        "other-entity", [blue], [fact("s1", entity="lamp-2")],
        "De enige feitregel gaat over een andere lamp (lamp-2). Dat is geen bewijs over deze lamp: unknown, "
        "zonder bronnen.",
        "The only fact row is about another lamp (lamp-2). That is no evidence about this lamp: unknown, with "
        "no sources.",
        "صف الحقيقة الوحيد يخص مصباحًا آخر (lamp-2). هذا ليس دليلًا عن هذا المصباح: unknown بلا مصادر.")
    yield _case(
        "other-attribute", [blue], [fact("s1", attribute="gewicht", value="2 kg"), fact("s2", entity="vaas")],
        "Er zijn feiten over hetzelfde ding maar een ander attribuut (gewicht), en over hetzelfde attribuut van "
        "een ander ding (vaas). Geen van beide telt: unknown, sources leeg.",
        "There are facts about the same thing but another attribute (weight), and about the same attribute of "
        "another thing (vase). Neither counts: unknown, empty sources.",
        "هناك حقائق عن الشيء نفسه لكن بسمة أخرى (الوزن)، وعن السمة نفسها لشيء آخر (مزهرية). "
        "لا يُحتسب أيّ منهما: unknown وsources فارغة.")
    yield _case(
        "sources-from-own-pair", [blue],
        [fact("s1"), fact("s2", attribute="gewicht", value="2 kg"), fact("s0", entity="vaas")],
        "Alleen bronnen van hetzelfde entity/attribute-paar horen in sources: ['s1'], niet s0 of s2.",
        "Only sources of the same entity/attribute pair belong in sources: ['s1'], not s0 or s2.",
        "لا تدخل في sources إلا مصادر الزوج نفسه entity/attribute: ['s1']، لا s0 ولا s2.")
    yield _case(
        "joined-key-no-collision", [claim(entity="lamp", attribute="kleur")],
        [fact("s1", entity="lampk", attribute="leur")],
        "'lampk' + 'leur' en 'lamp' + 'kleur' geven aan elkaar geplakt dezelfde tekst, maar het zijn andere "
        "paren: unknown. Gebruik een tuple (entity, attribute) als sleutel.",
        "'lampk' + 'leur' and 'lamp' + 'kleur' glue into the same text, but they are different pairs: unknown. "
        "Use a tuple (entity, attribute) as the key.",
        "'lampk' + 'leur' و'lamp' + 'kleur' يعطيان النص نفسه عند لصقهما، لكنهما زوجان مختلفان: unknown. "
        "استخدم tuple (entity, attribute) مفتاحًا.")
    yield _case(
        "case-differs", [claim(value="Blauw")], seed_facts,
        "Geregistreerd is 'blauw', de claim zegt 'Blauw'. Waarden worden niet genormaliseerd: contradicted.",
        "The registry says 'blauw', the claim says 'Blauw'. Values are not normalised: contradicted.",
        "المسجّل هو 'blauw' والادعاء يقول 'Blauw'. لا تُوحَّد القيم: contradicted.",
        hint={"nl": "Vergelijk strings precies met ==, zonder lower() of strip().",
              "en": "Compare strings exactly with ==, without lower() or strip().",
              "ar": "قارن النصوص حرفيًا بـ == دون lower() أو strip()."})
    yield _case(
        "trailing-space-differs", [claim(value="blauw "), claim(entity="lamp ")], seed_facts,
        "'blauw ' (met spatie) is een andere waarde dan 'blauw': contradicted. 'lamp ' is een ander entity: "
        "unknown.",
        "'blauw ' (with a space) is another value than 'blauw': contradicted. 'lamp ' is another entity: unknown.",
        "'blauw ' (بمسافة) قيمة غير 'blauw': contradicted. و'lamp ' كيان آخر: unknown.")
    yield _case(
        "case-differs-in-key", [claim(entity="Lamp"), claim(attribute="Kleur")], seed_facts,
        "Ook entity en attribute worden exact vergeleken: 'Lamp' en 'Kleur' hebben geen bewijs, dus unknown.",
        "Entity and attribute are compared exactly too: 'Lamp' and 'Kleur' have no evidence, so unknown.",
        "يُقارن entity وattribute حرفيًا أيضًا: لا دليل لـ 'Lamp' ولا لـ 'Kleur'، إذن unknown.")
    yield _case(
        "conflict-with-match", [blue],
        [fact("s2", value="rood"), fact("s1"), fact("s3")],
        "Blauw (s1, s3) en rood (s2) zijn allebei geregistreerd. Conflict, ook al past blauw; sources "
        "['s1', 's2', 's3'].",
        "Blue (s1, s3) and red (s2) are both registered. Conflict, even though blue matches; sources "
        "['s1', 's2', 's3'].",
        "الأزرق (s1, s3) والأحمر (s2) كلاهما مسجّل. conflict رغم تطابق الأزرق؛ المصادر ['s1', 's2', 's3'].",
        hint={"nl": "Controleer eerst of er meer dan één verschillende waarde is.",
              "en": "First check whether there is more than one distinct value.",
              "ar": "تحقّق أولًا مما إذا كانت هناك أكثر من قيمة مختلفة."})
    yield _case(
        "conflict-without-match", [claim(value="groen")],
        [fact("s1"), fact("s2", value="rood")],
        "Groen staat nergens, maar blauw en rood botsen al: conflict, niet contradicted.",
        "Green is nowhere, but blue and red already clash: conflict, not contradicted.",
        "الأخضر غير موجود، لكن الأزرق والأحمر متعارضان أصلًا: conflict وليس contradicted.")
    yield _case(
        "conflict-by-case", [blue], [fact("s1"), fact("s2", value="Blauw")],
        "'blauw' en 'Blauw' zijn twee verschillende geregistreerde waarden: conflict.",
        "'blauw' and 'Blauw' are two different registered values: conflict.",
        "'blauw' و'Blauw' قيمتان مسجلتان مختلفتان: conflict.")
    yield _case(
        "mixed-order", [weight, red, claim(entity="vaas"), blue, blue],
        [fact("s1"), fact("s9", entity="vaas", value="wit"), fact("s8", entity="vaas", value="geel")],
        "Vijf claims, in volgorde beantwoord: unknown, contradicted, conflict (vaas: wit én geel), supported, "
        "en dezelfde claim nog eens supported.",
        "Five claims, answered in order: unknown, contradicted, conflict (vase: white and yellow), supported, "
        "and the same claim again supported.",
        "خمسة ادعاءات تُجاب بالترتيب: unknown ثم contradicted ثم conflict (المزهرية: أبيض وأصفر) ثم supported، "
        "والادعاء نفسه مرة أخرى supported.")
    yield _case(
        "no-facts", [blue, red], [],
        "Zonder feitregels is er voor geen enkele claim bewijs: alles unknown. Dat is ontbrekend bewijs, geen "
        "bewezen onwaarheid.",
        "With no fact rows there is no evidence for any claim: all unknown. That is missing evidence, not a "
        "proven falsehood.",
        "دون صفوف حقائق لا دليل لأي ادعاء: الكل unknown. هذا دليل مفقود، لا كذب مُثبت.")
    yield _case(
        "no-claims", [], seed_facts,
        "Een lege lijst claims is toegestaan en geeft een lege lijst terug.",
        "An empty list of claims is allowed and returns an empty list.",
        "قائمة ادعاءات فارغة مسموحة وتُرجع قائمة فارغة.")

    # Limits, both sides.
    many_claims = [claim(value=f"v{i}") for i in range(32)]
    yield _case(
        "claims-32", many_claims, seed_facts,
        "Precies 32 claims is nog toegestaan.",
        "Exactly 32 claims is still allowed.",
        "32 ادعاءً بالضبط ما زال مسموحًا.")
    yield _invalid(
        "claims-33", many_claims + [blue], seed_facts,
        "33 claims is er één te veel.", "33 claims is one too many.", "33 ادعاءً أكثر من الحد بواحد.")
    many_facts = [fact(f"s{i:03d}") for i in range(128)]
    yield _case(
        "facts-128", [blue], many_facts,
        "Precies 128 feitregels is nog toegestaan (allemaal blauw: supported, 128 bronnen).",
        "Exactly 128 fact rows is still allowed (all blue: supported, 128 sources).",
        "128 صف حقيقة بالضبط ما زال مسموحًا (كلها زرقاء: supported و128 مصدرًا).")
    yield _invalid(
        "facts-129", [blue], many_facts + [fact("s999")],
        "129 feitregels is er één te veel.", "129 fact rows is one too many.", "129 صف حقيقة أكثر من الحد بواحد.")
    long_ok = "b" * 199 + " "
    yield _case(
        "value-200-chars", [claim(value=long_ok)], [fact("s1", value=long_ok), fact("x" * 200, value=long_ok)],
        "Een waarde van precies 200 tekens (de laatste is een spatie; er wordt niets gestript) en een bron van "
        "200 tekens zijn toegestaan.",
        "A value of exactly 200 characters (the last one a space; nothing is stripped) and a 200-character "
        "source are allowed.",
        "قيمة من 200 حرف بالضبط (آخرها مسافة؛ لا يُحذف شيء) ومصدر من 200 حرف مسموحان.")
    yield _invalid(
        "value-201-chars", [claim(value="b" * 201)], seed_facts,
        "De claimwaarde heeft 201 tekens.", "The claim value has 201 characters.", "قيمة الادعاء 201 حرف.")
    yield _invalid(
        "source-201-chars", [blue], [fact("s" * 201)],
        "De bron heeft 201 tekens.", "The source has 201 characters.", "المصدر 201 حرف.")
    yield _invalid(
        "entity-201-chars", [claim(entity="e" * 201)], [],
        "Het entity van de claim heeft 201 tekens (ook zonder feiten wordt gecontroleerd).",
        "The claim's entity has 201 characters (checked even without facts).",
        "كيان الادعاء 201 حرف (يُفحص حتى دون حقائق).")

    # Blank and empty strings.
    yield _invalid(
        "whitespace-value", [claim(value="   ")], seed_facts,
        "De claimwaarde bestaat alleen uit spaties.", "The claim value is only spaces.",
        "قيمة الادعاء مسافات فقط.")
    yield _invalid(
        "whitespace-source", [blue], [fact("\t\n")],
        "De bron bestaat alleen uit een tab en een regeleinde.", "The source is only a tab and a newline.",
        "المصدر مجرد علامة جدولة وسطر جديد.")
    yield _invalid(
        "empty-attribute", [claim(attribute="")], seed_facts,
        "Het attribuut is een lege string.", "The attribute is an empty string.", "السمة نص فارغ.")

    # Keys and field types.
    yield _invalid(
        "claim-missing-value", [{"entity": "lamp", "attribute": "kleur"}], seed_facts,
        "De claim mist het veld value.", "The claim lacks the value field.", "الادعاء ينقصه الحقل value.")
    yield _invalid(
        "fact-missing-source", [blue], [dict(LAMP)],
        "De feitregel mist het veld source.", "The fact row lacks the source field.", "صف الحقيقة ينقصه الحقل source.")
    yield _invalid(
        "claim-extra-source", [fact("s1")], seed_facts,
        "Een claim heeft geen source; een claim met een extra veld source is ongeldig.",
        "A claim has no source; a claim with an extra source field is invalid.",
        "الادعاء لا يحمل source؛ والادعاء الذي فيه حقل source إضافي غير صالح.")
    yield _invalid(
        "fact-extra-key", [blue], [{**fact("s1"), "datum": "2024-01-01"}],
        "De feitregel heeft een extra veld datum.", "The fact row has an extra field datum.",
        "صف الحقيقة فيه حقل إضافي datum.")
    yield _invalid(
        "value-not-str", [claim(value=3)], seed_facts,
        "De claimwaarde is het getal 3, geen str.", "The claim value is the number 3, not a str.",
        "قيمة الادعاء هي العدد 3 وليست str.")
    yield _invalid(
        "source-none", [blue], [fact(None)],
        "De bron is None.", "The source is None.", "المصدر None.")
    yield _invalid(
        "entity-list", [claim(entity=["lamp"])], [],
        "Het entity is een lijst, geen str.", "The entity is a list, not a str.", "الكيان قائمة وليس str.")
    yield _invalid(
        "claim-not-dict", [["lamp", "kleur", "blauw"]], seed_facts,
        "De claim is een lijst in plaats van een dict.", "The claim is a list instead of a dict.",
        "الادعاء قائمة بدل dict.")
    yield _invalid(
        "claims-tuple", (blue,), seed_facts,
        "claims is een tuple; alleen een list is toegestaan.", "claims is a tuple; only a list is allowed.",
        "claims من نوع tuple؛ المسموح list فقط.")
    yield _invalid(
        "facts-dict", [blue], fact("s1"),
        "facts is één dict in plaats van een lijst van dicts.", "facts is a single dict instead of a list of dicts.",
        "facts قاموس واحد بدل قائمة قواميس.")
    yield _invalid(
        "facts-none", [blue], None,
        "facts is None.", "facts is None.", "facts هي None.")
    yield _invalid(
        "invalid-unused-fact", [blue], [fact("s1"), fact("s2", entity="vaas", value="  ")],
        "Een feitregel over de vaas heeft een lege waarde. Geen claim gebruikt hem, maar alle invoer moet geldig "
        "zijn.",
        "A fact row about the vase has a blank value. No claim uses it, but all input must be valid.",
        "صف حقيقة عن المزهرية قيمته فارغة. لا يستخدمه أي ادعاء، لكن كل الإدخال يجب أن يكون صالحًا.")
    yield _invalid(
        "invalid-fact-no-claims", [], [{"entity": "lamp", "attribute": "kleur", "value": "blauw"}],
        "Er zijn geen claims, maar de feitregel mist source.",
        "There are no claims, but the fact row lacks a source.",
        "لا ادعاءات، لكن صف الحقيقة ينقصه source.")


_ENTITIES = ["lamp", "vaas", "stoel", "Lamp"]
_ATTRIBUTES = ["kleur", "gewicht", "merk"]
_VALUES = ["blauw", "rood", "wit", "Blauw", "blauw ", "2 kg"]
_SOURCES = ["s1", "s2", "s3", "s4", "s5", "doc-a", "doc-b", "bron-7"]


def random_cases(rng, count):
    """Yield `count` valid random claim sets against small random registries (ids random-0, random-1, ...)."""
    for index in range(count):
        facts = []
        for _ in range(rng.randint(0, 12)):
            facts.append(fact(rng.choice(_SOURCES), rng.choice(_ENTITIES), rng.choice(_ATTRIBUTES),
                              rng.choice(_VALUES)))
        claims = []
        for _ in range(rng.randint(1, 8)):
            if facts and rng.random() < 0.7:
                base = rng.choice(facts)
                value = base["value"] if rng.random() < 0.5 else rng.choice(_VALUES)
                claims.append(claim(base["entity"], base["attribute"], value))
            else:
                claims.append(claim(rng.choice(_ENTITIES), rng.choice(_ATTRIBUTES), rng.choice(_VALUES)))
        yield _case(
            f"random-{index}", claims, facts,
            f"Willekeurige registratie met {len(facts)} feitregels en {len(claims)} claims.",
            f"A random registry with {len(facts)} fact rows and {len(claims)} claims.",
            f"سجل عشوائي فيه {len(facts)} صف حقائق و{len(claims)} ادعاءات.")
