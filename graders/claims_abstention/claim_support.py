"""Hidden grader: claims-abstention, checkpoint 1 (claim_support).

The curated cases speak the learner's language: their example data (lamp, colour, blue…) comes from
:data:`graders.claims_abstention.common.WORDS`, so a Dutch learner reads Dutch data and an English learner English
data, with the same case ids and the same outcomes (sources are neutral ids). The input domain drives the generated
cases; it follows the lesson's sample solution: lists only, dicts with exactly the named keys, ``str`` fields that
are non-blank after ``strip()`` and at most 200 characters as given.
"""

from graders.claims_abstention.common import case_builders, words
from graders.engine.domain import Domain, Param, Record, Seq, Text
from graders.engine.settings import FALLBACK_LANGUAGE

RANDOM_CASES = 25

_FIELD = 200
CLAIM = Record(
    {
        "entity": Text(_FIELD, pool="entity"),
        "attribute": Text(_FIELD, pool="attribute"),
        "value": Text(_FIELD, pool="value"),
    },
    key=("entity", "attribute"),
)
FACT = Record(
    {
        "entity": Text(_FIELD, pool="entity"),
        "attribute": Text(_FIELD, pool="attribute"),
        "value": Text(_FIELD, pool="value"),
        "source": Text(_FIELD, pool="source"),
    },
    key=("entity", "attribute"),
)
DOMAIN = Domain(
    call="claim_support",
    params=(Param("claims", Seq(CLAIM, max_len=32)), Param("facts", Seq(FACT, max_len=128))),
    records=(("claims", "facts"),),
    # A str subclass or a dict subclass is left open by the task (isinstance accepts both); not generated.
)

# _case(case_id, claims, facts, nl, en, ar, hint=None) and _invalid(case_id, claims, facts, nl, en, ar)
_case, _invalid = case_builders(
    "claim_support",
    2,
    invalid_hint={
        "nl": "Controleer alle invoer vóór je iets berekent en gooi dan ValueError.",
        "en": "Validate all input before computing anything, and raise ValueError.",
        "ar": "تحقّق من كل الإدخال قبل أي حساب، وارفع ValueError.",
    },
)


def curated(lang=FALLBACK_LANGUAGE):
    """Yield the curated cases, in the order a learner should meet them, with example data in ``lang``."""
    w = words(lang)
    lamp, colour, blue, red, weight = w["lamp"], w["colour"], w["blue"], w["red"], w["weight"]
    vase, white, yellow, green = w["vase"], w["white"], w["yellow"], w["green"]
    en, nl = words("en"), words("nl")

    def claim(entity=lamp, attribute=colour, value=blue):
        return {"entity": entity, "attribute": attribute, "value": value}

    def fact(source, entity=lamp, attribute=colour, value=blue):
        return {"entity": entity, "attribute": attribute, "value": value, "source": source}

    blue_claim, red_claim, weight_claim = claim(), claim(value=red), claim(attribute=weight)
    seed_facts = [fact("s1")]
    cap = blue[0].upper() + blue[1:]

    yield _case(
        "seed-three-statuses",
        [blue_claim, red_claim, weight_claim],
        seed_facts,
        f"Eén feitregel (bron s1: de {nl['lamp']} is {nl['blue']}) en drie claims: {nl['blue']} is supported, "
        f"{nl['red']} is contradicted, {nl['weight']} is unknown (geen feit over dat attribuut). Ook een "
        "tegengesproken claim noemt de bron s1.",
        f"One fact row (source s1: the {en['lamp']} is {en['blue']}) and three claims: {en['blue']} is supported, "
        f"{en['red']} is contradicted, {en['weight']} is unknown (no fact about that attribute). A contradicted claim "
        "lists source s1 as well.",
        f"صف حقيقة واحد (المصدر s1: {en['lamp']} لونه {en['blue']}) وثلاثة ادعاءات: {en['blue']} مدعوم supported، "
        f"و{en['red']} متناقض contradicted، و{en['weight']} unknown (لا حقيقة عن هذه السمة). والادعاء المتناقض يذكر "
        "المصدر s1 أيضًا.",
        hint={
            "nl": "Bewijs zijn alleen feitregels met hetzelfde entity én attribute. Geen bewijs: unknown met []; "
            "anders noemt sources alle bronnen van die regels, ook bij contradicted.",
            "en": "Evidence is only fact rows with the same entity and attribute. No evidence: unknown with []; "
            "otherwise sources lists every source of those rows, for contradicted too.",
            "ar": "الدليل هو صفوف الحقائق ذات الكيان والسمة نفسيهما فقط. بلا دليل: unknown مع []؛ وإلا فإن "
            "sources تذكر كل مصادر تلك الصفوف، حتى في contradicted.",
        },
    )
    yield _case(
        "seed-conflict",
        [blue_claim],
        seed_facts + [fact("s2", value=red)],
        f"De {nl['lamp']} is als {nl['blue']} (s1) én als {nl['red']} (s2) geregistreerd. Dat is "
        f"conflict, met bronnen ['s1', 's2'], ook al past {nl['blue']}.",
        f"The {en['lamp']} is registered as {en['blue']} (s1) and as {en['red']} (s2). That is "
        f"conflict, with sources ['s1', 's2'], even though {en['blue']} matches.",
        f"{en['lamp']} مسجّل بقيمتين: {en['blue']} (s1) و{en['red']} (s2). هذا conflict بالمصادر "
        f"['s1', 's2'] رغم أن {en['blue']} مطابقة.",
        hint={
            "nl": "Tel verschillende waarden per (entity, attribute), niet of de claimwaarde erbij zit.",
            "en": "Count distinct values per (entity, attribute) first, before looking for the claim's value.",
            "ar": "عُدّ القيم المختلفة لكل (entity, attribute) أولًا، قبل البحث عن قيمة الادعاء.",
        },
    )
    yield _case(
        "contradicted-sources",
        [red_claim],
        [fact("s4"), fact("s3")],
        f"Twee bronnen zeggen allebei {nl['blue']}: dat is één geregistreerde waarde, dus geen conflict. De claim zegt "
        f"{nl['red']}: contradicted, en sources noemt beide bronnen (['s3', 's4']): "
        "ook tegenbewijs heeft een herkomst.",
        f"Two sources both say {en['blue']}: that is one registered value, so no conflict. The claim says "
        f"{en['red']}: contradicted, and sources lists both (['s3', 's4']): counter-evidence has an origin too.",
        f"مصدران يقولان كلاهما {en['blue']}: هذه قيمة مسجلة واحدة، فلا تعارض. والادعاء يقول {en['red']}: "
        "contradicted، وsources تذكر المصدرين (['s3', 's4']): للدليل المضاد مصدر أيضًا.",
        hint={
            "nl": "Tel verschillende waarden (een set), geen feitregels; en geef bij contradicted ook de bronnen, "
            "gesorteerd.",
            "en": "Count distinct values (a set), not fact rows; and list the sources for contradicted too, sorted.",
            "ar": "عُدّ القيم المختلفة (مجموعة set) لا صفوف الحقائق؛ واذكر المصادر في حالة contradicted أيضًا، مرتّبة.",
        },
    )
    yield _case(
        "same-value-two-sources",
        [blue_claim],
        [fact("s2"), fact("s1")],
        f"Twee bronnen registreren dezelfde waarde {nl['blue']}. Dat is één waarde, dus supported (geen conflict), en "
        "beide bronnen staan gesorteerd in sources.",
        f"Two sources register the same value {en['blue']}. That is one value, so supported (not conflict), and "
        "both sources appear, sorted, in sources.",
        f"مصدران يسجّلان القيمة نفسها ({en['blue']}). هذه قيمة واحدة، إذن supported وليس conflict، والمصدران "
        "مذكوران مرتبين في sources.",
        hint={
            "nl": "Conflict gaat over verschillende waarden, niet over het aantal feitregels.",
            "en": "Conflict is about distinct values, not about the number of fact rows.",
            "ar": "التعارض يتعلق بالقيم المختلفة، لا بعدد صفوف الحقائق.",
        },
    )
    yield _case(
        "same-source-twice",
        [blue_claim],
        [fact("s1"), fact("s1")],
        "Dezelfde feitregel staat twee keer in de registratie. De bron s1 verschijnt maar één keer in sources.",
        "The same fact row appears twice in the registry. Source s1 is listed only once.",
        "صف الحقيقة نفسه مكرر مرتين في السجل. يظهر المصدر s1 مرة واحدة فقط في sources.",
        hint={
            "nl": "Maak de bronnen uniek, bijvoorbeeld met een set, en sorteer daarna.",
            "en": "Make the sources unique, for instance with a set, then sort them.",
            "ar": "اجعل المصادر فريدة، مثلًا بمجموعة set، ثم رتّبها.",
        },
    )
    yield _case(
        "same-source-apart",
        [blue_claim],
        [fact("s1"), fact("s2"), fact("s1")],
        "Bron s1 staat in de eerste en de derde feitregel, met s2 ertussen: sources noemt elke bron één keer, "
        "['s1', 's2'].",
        "Source s1 is in the first and the third fact row, with s2 between them: sources lists each source once, "
        "['s1', 's2'].",
        "المصدر s1 في صف الحقيقة الأول والثالث، وبينهما s2: تذكر sources كل مصدر مرة واحدة، ['s1', 's2'].",
        hint={
            "nl": "Maak de bronnen uniek over alle feitregels, niet alleen naast elkaar: een set, en sorteer daarna.",
            "en": "Make the sources unique over all fact rows, not only neighbouring ones: a set, then sort them.",
            "ar": "اجعل المصادر فريدة عبر كل صفوف الحقائق، لا المتجاورة وحدها: مجموعة set، ثم رتّبها.",
        },
    )
    yield _case(
        "unsorted-sources",
        [blue_claim],
        [fact("s3"), fact("s1"), fact("s2")],
        "De bronnen komen in de volgorde s3, s1, s2 binnen; het resultaat noemt ze gesorteerd: ['s1', 's2', 's3'].",
        "The sources arrive as s3, s1, s2; the result lists them sorted: ['s1', 's2', 's3'].",
        "تصل المصادر بالترتيب s3 ثم s1 ثم s2؛ والنتيجة تذكرها مرتبة: ['s1', 's2', 's3'].",
        hint={
            "nl": "Gebruik sorted() op de unieke bronnen.",
            "en": "Apply sorted() to the unique sources.",
            "ar": "استخدم sorted() على المصادر الفريدة.",
        },
    )
    yield _case(
        "sorted-as-sorted-does",
        [blue_claim],
        [fact("s9"), fact("S2"), fact("s10"), fact("b"), fact("A")],
        "Bronnen worden gesorteerd zoals sorted() dat doet: hoofdletters vóór kleine letters en cijfers teken voor "
        "teken, dus ['A', 'S2', 'b', 's10', 's9'].",
        "Sources are sorted the way sorted() does it: capitals before lower case and digits character by "
        "character, so ['A', 'S2', 'b', 's10', 's9'].",
        "تُرتَّب المصادر كما تفعل sorted(): الأحرف الكبيرة قبل الصغيرة والأرقام محرفًا محرفًا، أي "
        "['A', 'S2', 'b', 's10', 's9'].",
        hint={
            "nl": "Gewoon sorted(): geen key=str.lower en geen 'natuurlijke' sortering.",
            "en": "Plain sorted(): no key=str.lower and no 'natural' ordering.",
            "ar": "sorted() عادية: دون key=str.lower ودون ترتيب 'طبيعي'.",
        },
    )
    yield _case(
        "other-entity",
        [blue_claim],
        [fact("s1", entity=f"{lamp}-2")],
        f"De enige feitregel gaat over een andere {nl['lamp']} ({nl['lamp']}-2). Dat is geen bewijs over deze: "
        "unknown, zonder bronnen.",
        f"The only fact row is about another {en['lamp']} ({en['lamp']}-2). That is no evidence about this one: "
        "unknown, with no sources.",
        f"صف الحقيقة الوحيد يخص {en['lamp']} آخر ({en['lamp']}-2). هذا ليس دليلًا عن هذا: unknown بلا مصادر.",
    )
    yield _case(
        "other-attribute",
        [blue_claim],
        [fact("s1", attribute=weight, value="2 kg"), fact("s2", entity=vase)],
        f"Er zijn feiten over hetzelfde ding maar een ander attribuut ({nl['weight']}), en over hetzelfde attribuut "
        f"van een ander ding ({nl['vase']}). Geen van beide telt: unknown, sources leeg.",
        f"There are facts about the same thing but another attribute ({en['weight']}), and about the same "
        f"attribute of another thing ({en['vase']}). Neither counts: unknown, empty sources.",
        f"هناك حقائق عن الشيء نفسه لكن بسمة أخرى ({en['weight']})، وعن السمة نفسها لشيء آخر ({en['vase']}). "
        "لا يُحتسب أيّ منهما: unknown وsources فارغة.",
    )
    yield _case(
        "sources-from-own-pair",
        [blue_claim],
        [fact("s1"), fact("s2", attribute=weight, value="2 kg"), fact("s0", entity=vase)],
        "Alleen bronnen van hetzelfde entity/attribute-paar horen in sources: ['s1'], niet s0 of s2.",
        "Only sources of the same entity/attribute pair belong in sources: ['s1'], not s0 or s2.",
        "لا تدخل في sources إلا مصادر الزوج نفسه entity/attribute: ['s1']، لا s0 ولا s2.",
    )
    yield _case(
        "joined-key-no-collision",
        [claim(entity=lamp, attribute=colour)],
        [fact("s1", entity=lamp + colour[:1], attribute=colour[1:])],
        f"'{nl['lamp']}{nl['colour'][:1]}' + '{nl['colour'][1:]}' en '{nl['lamp']}' + '{nl['colour']}' geven aan "
        "elkaar geplakt dezelfde tekst, maar het zijn andere paren: unknown. Gebruik een tuple (entity, attribute) "
        "als sleutel.",
        f"'{en['lamp']}{en['colour'][:1]}' + '{en['colour'][1:]}' and '{en['lamp']}' + '{en['colour']}' glue into the "
        "same text, but they are different pairs: unknown. Use a tuple (entity, attribute) as the key.",
        f"'{en['lamp']}{en['colour'][:1]}' + '{en['colour'][1:]}' و'{en['lamp']}' + '{en['colour']}' يعطيان النص نفسه "
        "عند لصقهما، لكنهما زوجان مختلفان: unknown. استخدم tuple (entity, attribute) مفتاحًا.",
    )
    yield _case(
        "joined-key-separator",
        [claim(entity="a", attribute="b|c")],
        [fact("s1", entity="a|b", attribute="c")],
        "Ook met een scheidingsteken plakken ('a|b', 'c') en ('a', 'b|c') tot dezelfde tekst 'a|b|c'; het zijn "
        "andere paren: unknown.",
        "With a separator too, ('a|b', 'c') and ('a', 'b|c') glue into the same text 'a|b|c'; they are different "
        "pairs: unknown.",
        "حتى مع فاصل، يلتصق ('a|b', 'c') و('a', 'b|c') في النص نفسه 'a|b|c'؛ وهما زوجان مختلفان: unknown.",
    )
    yield _case(
        "value-inside-another",
        [blue_claim],
        [fact("s1", value=f"{blue}/{red}")],
        f"Geregistreerd is '{nl['blue']}/{nl['red']}'; de claim '{nl['blue']}' staat daarin, maar is een andere "
        "waarde: contradicted, niet supported.",
        f"The registry says '{en['blue']}/{en['red']}'; the claim '{en['blue']}' occurs inside it, but it is another "
        "value: contradicted, not supported.",
        f"المسجّل هو '{en['blue']}/{en['red']}'؛ والادعاء '{en['blue']}' جزء منه، لكنه قيمة أخرى: contradicted لا "
        "supported.",
    )
    yield _case(
        "case-differs",
        [claim(value=cap)],
        seed_facts,
        f"Geregistreerd is '{nl['blue']}', de claim zegt '{nl['blue'].capitalize()}'. Waarden worden niet "
        "genormaliseerd: contradicted.",
        f"The registry says '{en['blue']}', the claim says '{en['blue'].capitalize()}'. Values are not normalised: "
        "contradicted.",
        f"المسجّل هو '{en['blue']}' والادعاء يقول '{en['blue'].capitalize()}'. لا تُوحَّد القيم: contradicted.",
        hint={
            "nl": "Vergelijk strings precies met ==, zonder lower() of strip().",
            "en": "Compare strings exactly with ==, without lower() or strip().",
            "ar": "قارن النصوص حرفيًا بـ == دون lower() أو strip().",
        },
    )
    yield _case(
        "trailing-space-differs",
        [claim(value=blue + " "), claim(entity=lamp + " ")],
        seed_facts,
        f"'{nl['blue']} ' (met spatie) is een andere waarde dan '{nl['blue']}': contradicted. '{nl['lamp']} ' is een "
        "ander entity: unknown.",
        f"'{en['blue']} ' (with a space) is another value than '{en['blue']}': contradicted. '{en['lamp']} ' is "
        "another entity: unknown.",
        f"'{en['blue']} ' (بمسافة) قيمة غير '{en['blue']}': contradicted. و'{en['lamp']} ' كيان آخر: unknown.",
    )
    yield _case(
        "case-differs-in-key",
        [claim(entity=lamp.capitalize()), claim(attribute=colour.capitalize())],
        seed_facts,
        f"Ook entity en attribute worden exact vergeleken: '{nl['lamp'].capitalize()}' en "
        f"'{nl['colour'].capitalize()}' hebben geen bewijs, dus unknown.",
        f"Entity and attribute are compared exactly too: '{en['lamp'].capitalize()}' and "
        f"'{en['colour'].capitalize()}' have no evidence, so unknown.",
        f"يُقارن entity وattribute حرفيًا أيضًا: لا دليل لـ '{en['lamp'].capitalize()}' ولا لـ "
        f"'{en['colour'].capitalize()}'، إذن unknown.",
    )
    yield _case(
        "unicode-forms-differ",
        [claim(value="cafe\u0301")],
        [fact("s1", value="caf\u00e9")],
        "'café' met een losse accentcombinatie (NFD) en 'café' als één teken (NFC) zien er gelijk uit maar zijn "
        "verschillende strings: contradicted.",
        "'café' written with a combining accent (NFD) and 'café' as one character (NFC) look alike but are "
        "different strings: contradicted.",
        "'café' بعلامة مركّبة منفصلة (NFD) و'café' بمحرف واحد (NFC) متشابهتان شكلًا لكنهما نصان مختلفان: contradicted.",
    )
    yield _case(
        "conflict-with-match",
        [blue_claim],
        [fact("s2", value=red), fact("s1"), fact("s3")],
        f"{nl['blue'].capitalize()} (s1, s3) en {nl['red']} (s2) zijn allebei geregistreerd. Conflict, ook al past "
        f"{nl['blue']}; sources ['s1', 's2', 's3'].",
        f"{en['blue'].capitalize()} (s1, s3) and {en['red']} (s2) are both registered. Conflict, even though "
        f"{en['blue']} matches; sources ['s1', 's2', 's3'].",
        f"{en['blue']} (s1, s3) و{en['red']} (s2) كلاهما مسجّل. conflict رغم تطابق {en['blue']}؛ المصادر "
        "['s1', 's2', 's3'].",
        hint={
            "nl": "Controleer eerst of er meer dan één verschillende waarde is.",
            "en": "First check whether there is more than one distinct value.",
            "ar": "تحقّق أولًا مما إذا كانت هناك أكثر من قيمة مختلفة.",
        },
    )
    yield _case(
        "conflict-without-match",
        [claim(value=green)],
        [fact("s1"), fact("s2", value=red)],
        f"{nl['green'].capitalize()} staat nergens, maar {nl['blue']} en {nl['red']} botsen al: conflict, niet "
        "contradicted.",
        f"{en['green'].capitalize()} is nowhere, but {en['blue']} and {en['red']} already clash: conflict, not "
        "contradicted.",
        f"{en['green']} غير موجود، لكن {en['blue']} و{en['red']} متعارضان أصلًا: conflict وليس contradicted.",
    )
    yield _case(
        "conflict-by-case",
        [blue_claim],
        [fact("s1"), fact("s2", value=cap)],
        f"'{nl['blue']}' en '{nl['blue'].capitalize()}' zijn twee verschillende geregistreerde waarden: conflict.",
        f"'{en['blue']}' and '{en['blue'].capitalize()}' are two different registered values: conflict.",
        f"'{en['blue']}' و'{en['blue'].capitalize()}' قيمتان مسجلتان مختلفتان: conflict.",
    )
    yield _case(
        "mixed-order",
        [weight_claim, red_claim, claim(entity=vase), blue_claim, blue_claim],
        [fact("s1"), fact("s9", entity=vase, value=white), fact("s8", entity=vase, value=yellow)],
        f"Vijf claims, in volgorde beantwoord: unknown, contradicted, conflict ({nl['vase']}: {nl['white']} én "
        f"{nl['yellow']}), supported, en dezelfde claim nog eens supported.",
        f"Five claims, answered in order: unknown, contradicted, conflict ({en['vase']}: {en['white']} and "
        f"{en['yellow']}), supported, and the same claim again supported.",
        f"خمسة ادعاءات تُجاب بالترتيب: unknown ثم contradicted ثم conflict ({en['vase']}: {en['white']} و"
        f"{en['yellow']}) ثم supported، والادعاء نفسه مرة أخرى supported.",
    )
    yield _case(
        "no-facts",
        [blue_claim, red_claim],
        [],
        "Zonder feitregels is er voor geen enkele claim bewijs: alles unknown. Dat is ontbrekend bewijs, geen "
        "bewezen onwaarheid.",
        "With no fact rows there is no evidence for any claim: all unknown. That is missing evidence, not a "
        "proven falsehood.",
        "دون صفوف حقائق لا دليل لأي ادعاء: الكل unknown. هذا دليل مفقود، لا كذب مُثبت.",
    )
    yield _case(
        "no-claims",
        [],
        seed_facts,
        "Een lege lijst claims is toegestaan en geeft een lege lijst terug.",
        "An empty list of claims is allowed and returns an empty list.",
        "قائمة ادعاءات فارغة مسموحة وتُرجع قائمة فارغة.",
    )

    # Limits, both sides.
    many_claims = [claim(value=f"v{i}") for i in range(32)]
    yield _case(
        "claims-32",
        many_claims,
        seed_facts,
        "Precies 32 claims is nog toegestaan.",
        "Exactly 32 claims is still allowed.",
        "32 ادعاءً بالضبط ما زال مسموحًا.",
    )
    yield _invalid(
        "claims-33",
        many_claims + [blue_claim],
        seed_facts,
        "33 claims is er één te veel.",
        "33 claims is one too many.",
        "33 ادعاءً أكثر من الحد بواحد.",
    )
    many_facts = [fact(f"s{i:03d}") for i in range(128)]
    yield _case(
        "facts-128",
        [blue_claim],
        many_facts,
        f"Precies 128 feitregels is nog toegestaan (allemaal {nl['blue']}: supported, 128 bronnen).",
        f"Exactly 128 fact rows is still allowed (all {en['blue']}: supported, 128 sources).",
        f"128 صف حقيقة بالضبط ما زال مسموحًا (كلها {en['blue']}: supported و128 مصدرًا).",
    )
    yield _invalid(
        "facts-129",
        [blue_claim],
        many_facts + [fact("s999")],
        "129 feitregels is er één te veel.",
        "129 fact rows is one too many.",
        "129 صف حقيقة أكثر من الحد بواحد.",
    )
    long_ok = "b" * 199 + " "
    yield _case(
        "value-200-chars",
        [claim(value=long_ok)],
        [fact("s1", value=long_ok), fact("x" * 200, value=long_ok)],
        "Een waarde van precies 200 tekens (de laatste is een spatie; er wordt niets gestript) en een bron van "
        "200 tekens zijn toegestaan.",
        "A value of exactly 200 characters (the last one a space; nothing is stripped) and a 200-character "
        "source are allowed.",
        "قيمة من 200 حرف بالضبط (آخرها مسافة؛ لا يُحذف شيء) ومصدر من 200 حرف مسموحان.",
    )
    yield _case(
        "value-200-accented",
        [claim(value="\u00e9" * 200)],
        [fact("s1", value="\u00e9" * 200)],
        "200 keer 'é' is 200 tekens (len() telt tekens, geen bytes; in UTF-8 zijn het 400 bytes): toegestaan.",
        "200 times 'é' is 200 characters (len() counts characters, not bytes; in UTF-8 it is 400 bytes): allowed.",
        "'é' مكررة 200 مرة هي 200 حرف (len() تعدّ المحارف لا البايتات؛ وهي 400 بايت في UTF-8): مسموح.",
    )
    yield _invalid(
        "value-201-chars",
        [claim(value="b" * 201)],
        seed_facts,
        "De claimwaarde heeft 201 tekens.",
        "The claim value has 201 characters.",
        "قيمة الادعاء 201 حرف.",
    )
    yield _invalid(
        "value-201-with-spaces",
        [claim(value=" " + "b" * 199 + " ")],
        seed_facts,
        "De claimwaarde heeft 201 tekens; zonder de spaties eromheen zouden het er 199 zijn, maar de grens telt de "
        "string zoals hij is.",
        "The claim value has 201 characters; without the spaces around it there would be 199, but the limit "
        "counts the string as given.",
        "قيمة الادعاء 201 حرف؛ ولولا المسافتان حولها لكانت 199، لكن الحد يعدّ النص كما هو.",
    )
    yield _invalid(
        "source-201-chars",
        [blue_claim],
        [fact("s" * 201)],
        "De bron heeft 201 tekens.",
        "The source has 201 characters.",
        "المصدر 201 حرف.",
    )
    yield _invalid(
        "entity-201-chars",
        [claim(entity="e" * 201)],
        [],
        "Het entity van de claim heeft 201 tekens (ook zonder feiten wordt gecontroleerd).",
        "The claim's entity has 201 characters (checked even without facts).",
        "كيان الادعاء 201 حرف (يُفحص حتى دون حقائق).",
    )

    # Blank and empty strings.
    yield _invalid(
        "whitespace-value",
        [claim(value="   ")],
        seed_facts,
        "De claimwaarde bestaat alleen uit spaties.",
        "The claim value is only spaces.",
        "قيمة الادعاء مسافات فقط.",
    )
    yield _invalid(
        "whitespace-source",
        [blue_claim],
        [fact("\t\n")],
        "De bron bestaat alleen uit een tab en een regeleinde.",
        "The source is only a tab and a newline.",
        "المصدر مجرد علامة جدولة وسطر جديد.",
    )
    yield _invalid(
        "nbsp-attribute",
        [claim(attribute="\u00a0")],
        seed_facts,
        "Het attribuut is alleen een harde spatie (U+00A0). Ook dat is witruimte: strip() haalt hem weg.",
        "The attribute is only a no-break space (U+00A0). That is whitespace too: strip() removes it.",
        "السمة مسافة غير منقسمة فقط (U+00A0). وهي مسافة بيضاء أيضًا: تحذفها strip().",
    )
    yield _invalid(
        "empty-attribute",
        [claim(attribute="")],
        seed_facts,
        "Het attribuut is een lege string.",
        "The attribute is an empty string.",
        "السمة نص فارغ.",
    )

    # Keys and field types.
    yield _invalid(
        "claim-missing-value",
        [{"entity": lamp, "attribute": colour}],
        seed_facts,
        "De claim mist het veld value.",
        "The claim lacks the value field.",
        "الادعاء ينقصه الحقل value.",
    )
    yield _invalid(
        "fact-missing-source",
        [blue_claim],
        [claim()],
        "De feitregel mist het veld source.",
        "The fact row lacks the source field.",
        "صف الحقيقة ينقصه الحقل source.",
    )
    yield _invalid(
        "claim-extra-source",
        [fact("s1")],
        seed_facts,
        "Een claim heeft geen source; een claim met een extra veld source is ongeldig.",
        "A claim has no source; a claim with an extra source field is invalid.",
        "الادعاء لا يحمل source؛ والادعاء الذي فيه حقل source إضافي غير صالح.",
    )
    yield _invalid(
        "fact-extra-key",
        [blue_claim],
        [{**fact("s1"), "datum": "2024-01-01"}],
        "De feitregel heeft een extra veld datum.",
        "The fact row has an extra field datum.",
        "صف الحقيقة فيه حقل إضافي datum.",
    )
    yield _invalid(
        "value-not-str",
        [claim(value=3)],
        seed_facts,
        "De claimwaarde is het getal 3, geen str.",
        "The claim value is the number 3, not a str.",
        "قيمة الادعاء هي العدد 3 وليست str.",
    )
    yield _invalid("source-none", [blue_claim], [fact(None)], "De bron is None.", "The source is None.", "المصدر None.")
    yield _invalid(
        "entity-list",
        [claim(entity=[lamp])],
        [],
        "Het entity is een lijst, geen str.",
        "The entity is a list, not a str.",
        "الكيان قائمة وليس str.",
    )
    yield _invalid(
        "claim-not-dict",
        [[lamp, colour, blue]],
        seed_facts,
        "De claim is een lijst in plaats van een dict.",
        "The claim is a list instead of a dict.",
        "الادعاء قائمة بدل dict.",
    )
    yield _invalid(
        "claims-tuple",
        (blue_claim,),
        seed_facts,
        "claims is een tuple; alleen een list is toegestaan.",
        "claims is a tuple; only a list is allowed.",
        "claims من نوع tuple؛ المسموح list فقط.",
    )
    yield _invalid(
        "facts-set-of-none",
        [blue_claim],
        {None},
        "facts is een set; alleen een list is toegestaan.",
        "facts is a set; only a list is allowed.",
        "facts مجموعة set؛ المسموح list فقط.",
    )
    yield _invalid(
        "claims-empty-string",
        "",
        seed_facts,
        "claims is een lege string; een string is geen list, ook niet als je erover kunt itereren.",
        "claims is an empty string; a string is not a list, even though you can iterate over it.",
        "claims نص فارغ؛ والنص ليس list وإن أمكن المرور على محارفه.",
    )
    yield _invalid(
        "facts-dict",
        [blue_claim],
        fact("s1"),
        "facts is één dict in plaats van een lijst van dicts.",
        "facts is a single dict instead of a list of dicts.",
        "facts قاموس واحد بدل قائمة قواميس.",
    )
    yield _invalid("facts-none", [blue_claim], None, "facts is None.", "facts is None.", "facts هي None.")
    yield _invalid(
        "invalid-unused-fact",
        [blue_claim],
        [fact("s1"), fact("s2", entity=vase, value="  ")],
        f"Een feitregel over de {nl['vase']} heeft een lege waarde. Geen claim gebruikt hem, maar alle invoer moet "
        "geldig zijn.",
        f"A fact row about the {en['vase']} has a blank value. No claim uses it, but all input must be valid.",
        f"صف حقيقة عن {en['vase']} قيمته فارغة. لا يستخدمه أي ادعاء، لكن كل الإدخال يجب أن يكون صالحًا.",
    )
    yield _invalid(
        "invalid-fact-no-claims",
        [],
        [claim()],
        "Er zijn geen claims, maar de feitregel mist source.",
        "There are no claims, but the fact row lacks a source.",
        "لا ادعاءات، لكن صف الحقيقة ينقصه source.",
    )


def random_cases(rng, count):
    """Yield `count` valid random claim sets against small random registries (ids random-0, random-1, ...).

    Entities, attributes, values and sources come from small pools, so claims hit, miss and conflict; sources mix
    cases and numbers (s9, s10, S2) so that only sorted() gives their order.
    """
    from graders.engine.generate import random_bases

    for base in random_bases(DOMAIN, rng, count):
        claims, facts = base.args
        yield _case(
            base.id,
            claims[:8],
            facts[:12],
            f"Willekeurige registratie met {min(len(facts), 12)} feitregels en {min(len(claims), 8)} claims.",
            f"A random registry with {min(len(facts), 12)} fact rows and {min(len(claims), 8)} claims.",
            f"سجل عشوائي فيه {min(len(facts), 12)} صف حقائق و{min(len(claims), 8)} ادعاءات.",
        )
