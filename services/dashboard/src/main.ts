import "./styles.css";
import { startDashboard } from "./app";

const main = document.querySelector<HTMLElement>("main");
const signOut = document.querySelector<HTMLButtonElement>("#sign-out");
const dataAsOf = document.querySelector<HTMLElement>("#data-as-of");
if (main && signOut && dataAsOf) startDashboard(main, { signOut, dataAsOf });
