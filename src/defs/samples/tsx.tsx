import React, { useState } from "react";

type Props = { title: string };

export const Header = ({ title }: Props) => {
  const [open, setOpen] = useState(false);
  return (
    <header onClick={() => setOpen(!open)}>
      {title}
    </header>
  );
};

export function Footer(props: Props) {
  return <footer>{props.title}</footer>;
}

export default function App() {
  return <Header title="x" />;
}
