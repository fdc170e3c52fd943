import "./styles.css";
import { startDashboard } from "./app";

const main = document.querySelector<HTMLElement>("main");
const signOut = document.querySelector<HTMLButtonElement>("#sign-out");
if (main && signOut) startDashboard(main, signOut);
