/**
 * The error screen for the static pages' scripts: any uncaught error or unhandled rejection replaces
 * the page with 'Something went wrong', the message and Reload Page, as the dashboard does.
 */
import { ERROR_SCREEN, errorMessage, isUncaughtPageError } from "./error-texts.ts";

function show(message: string) {
  if (document.getElementById("error-screen")) return;
  const screen = document.createElement("div");
  screen.id = "error-screen";
  screen.setAttribute("role", "alert");
  screen.className = "fixed inset-0 z-50 flex flex-col items-center justify-center overflow-auto bg-white px-4 text-center";
  const title = document.createElement("h1");
  title.className = "text-3xl font-bold";
  title.textContent = ERROR_SCREEN.title;
  const text = document.createElement("p");
  text.className = "mt-3 max-w-xl break-words text-slate-700";
  text.textContent = message;
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "mt-8 rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700";
  reload.textContent = ERROR_SCREEN.reload;
  reload.addEventListener("click", () => location.reload());
  screen.append(title, text, reload);
  // The page underneath is in an unknown state: keep it out of reach of keyboard and screen readers.
  for (const el of document.body.children) (el as HTMLElement).inert = true;
  document.body.append(screen);
  reload.focus();
}

export function installErrorScreen() {
  addEventListener("error", (e) => {
    if (isUncaughtPageError(e)) show(errorMessage(e.error));
  });
  addEventListener("unhandledrejection", (e) => show(errorMessage(e.reason)));
}
