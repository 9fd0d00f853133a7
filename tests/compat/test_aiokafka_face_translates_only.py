"""The aiokafka and kafka-python faces (and what they share in kafkacodec.compat) only translate:
read with the confluent face's scan, their source reaches no private name of kafkacodec.client."""
from test_face_translates_only import CLIENT, PACKAGE, _defined_private_names, private_uses

COMPAT = PACKAGE / "compat"


def test_the_faces_use_no_private_name_of_the_client():
    files = sorted([*(COMPAT / "aiokafka").rglob("*.py"), *(COMPAT / "kafka_python").rglob("*.py"),
                    *COMPAT.glob("_*.py")])
    assert len(files) > 15
    client_private = _defined_private_names(sorted(CLIENT.rglob("*.py")))
    face_private = _defined_private_names(files)
    found = [f"{path.relative_to(PACKAGE)}:{line}: {what}"
             for path in files for line, what in private_uses(path.read_text(), str(path), client_private,
                                                              face_private)]
    assert found == [], "the faces reach private names of kafkacodec.client:\n" + "\n".join(found)
