import x from "y";

export const add = (a, b) => {
  return a + b;
};

const mul = function (a, b) {
  return a * b;
};

function* gen() {
  yield 1;
}

export default class Widget extends Base {
  static count = 0;
  onClick = (e) => {
    this.count++;
  };

  constructor(props) {
    super(props);
    items.forEach((item) => {
      console.log(item);
    });
  }

  render() {
    const inner = () => 1;
    return inner();
  }
}

Widget.prototype.legacy = function () {
  return 1;
};

module.exports = {
  helper() {
    return 2;
  },
  other: function () {},
};

export const actionZoom = register({
  name: "zoom",
  perform: (state) => {
    return state;
  },
});

function local() {
  const api = { get() {} };
}

const actions = {
  pan: {
    start() {},
  },
  zoom: register({ perform() {} }),
  "quoted-key"() {},
};
(window).app = { boot() {} };

const canvas = await exportIt({ getDimensions() {} });
Object.defineProperty(window, "x", { value: { subtle() {} } });
const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: { m() {} } } } } } } } } };
const eight = { a: { b: { c: { d: { e: { f: { g: { h: { m() {} } } } } } } } };
