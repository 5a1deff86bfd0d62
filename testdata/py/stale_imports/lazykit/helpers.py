class Object:
    pass


class Container(dict):
    pass
