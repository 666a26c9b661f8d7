import { useNavigate } from "react-router";
import { Button } from "../components/button.tsx";

export function NotFound() {
  const navigate = useNavigate();
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Page Not Found</h1>
      <p className="mt-2 text-slate-600">The page you are looking for does not exist.</p>
      <div className="mt-6 flex justify-center gap-2">
        <Button variant="secondary" onClick={() => navigate(-1)}>
          Go Back
        </Button>
        <Button onClick={() => window.location.assign("/")}>Go Home</Button>
      </div>
    </section>
  );
}
