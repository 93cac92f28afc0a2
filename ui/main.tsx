import { render } from "preact";
render(<p>Mailroom</p>, document.getElementById("app")!);
